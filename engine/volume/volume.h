#pragma once
// A scalar volume on the CPU: a regular grid of samples, x fastest in memory.
//
// Positions are in world units, as VTK does: the sample (i, j, k) lies at
// origin + (i, j, k) * spacing. Values keep the file's own type; isovalues are
// given in the data's own units.
//
// A file may place its grid with rotation, shear or flips (a NIfTI sform or
// qform, a DICOM series' patient orientation). The engine's grid stays
// axis-aligned: extraction and rendering work in the frame spacing and origin
// make, and indexToWorld keeps where the scanner put the samples, for
// volinfo to print and mesh writers to apply (mesh/world_transform.h).
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace isoscope {

enum class ScalarType : uint8_t { UInt8, UInt16, Int16, Float32 };

size_t scalarSize(ScalarType type);
std::string_view scalarName(ScalarType type);                    // "uint8", "uint16", "int16", "float32"
std::optional<ScalarType> parseScalarName(std::string_view name); // inverse of scalarName

// Summary of the samples, computed once when a volume is made or loaded.
// Non-finite samples (NaN, ±Inf; float32 only) are counted and left out of
// min/max/mean; extraction treats them as outside the surface.
struct VolumeStats {
    double min = 0.0;
    double max = 0.0;
    double mean = 0.0;
    uint64_t nonFinite = 0;
};

// A 4×4 affine map, row-major: m[row][column], the point (i, j, k) goes to
// (m[0]·(i, j, k, 1), m[1]·…, m[2]·…); the last row is 0 0 0 1.
using Affine = std::array<std::array<double, 4>, 4>;

struct Volume {
    std::array<uint32_t, 3> dims{0, 0, 0};
    std::array<double, 3> spacing{1.0, 1.0, 1.0};
    std::array<double, 3> origin{0.0, 0.0, 0.0};
    ScalarType type = ScalarType::Float32;
    std::vector<std::byte> data; // dims[0]*dims[1]*dims[2] samples of `type`, little-endian host order
    VolumeStats stats;
    std::string source; // file path or synthetic spec, for messages
    // Set only where the file's index-to-world map is not origin + index *
    // spacing: then spacing holds its column lengths (the step along each
    // axis) and origin its translation, the axis-aligned frame that keeps
    // voxel shape and scale.
    std::optional<Affine> indexToWorld;
    // What a reader changed or doubted on the way in (a type converted,
    // scaling applied, uneven slice spacing), for the CLI to show.
    std::vector<std::string> notes;

    uint64_t sampleCount() const { return uint64_t(dims[0]) * dims[1] * dims[2]; }
    uint64_t byteSize() const { return sampleCount() * scalarSize(type); }
    uint64_t index(uint32_t x, uint32_t y, uint32_t z) const { return (uint64_t(z) * dims[1] + y) * dims[0] + x; }
    // The sample at a linear index, converted to float (exact for every supported type).
    float valueAt(uint64_t i) const;
    float value(uint32_t x, uint32_t y, uint32_t z) const { return valueAt(index(x, y, z)); }
};

// volume.indexToWorld, or the map spacing and origin make when it is unset.
Affine worldMatrix(const Volume& volume);

// Fills volume.stats from volume.data. Readers and generators call it once.
void computeStats(Volume& volume);
// The same from `samples` held elsewhere (dims and type from `volume`), for a
// volume uploaded straight from its owner's memory with `data` left empty.
void computeStats(Volume& volume, const std::byte* samples);

// The sample at linear index `i` of `samples` of `type`, converted to float.
float sampleValue(const std::byte* samples, ScalarType type, uint64_t i);
// The stats of `count` consecutive samples of `type`.
VolumeStats sampleStats(ScalarType type, const std::byte* samples, uint64_t count);

} // namespace isoscope
