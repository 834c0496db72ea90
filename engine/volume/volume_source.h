#pragma once
// A volume read plane range by plane range, never whole: what streamed
// extraction (extract/stream/) uploads slab by slab, so that neither the host
// nor the device ever holds all of it.
//
//   std::unique_ptr<VolumeSource> source = openVolumeSource("ct_2048x2048x2048_uint8.raw");
//   std::vector<std::byte> planes(source->planeBytes() * 16);
//   source->readPlanes(0, 16, planes.data());   // z-planes 0..15, x fastest, host byte order
//
// Sources: a raw or raw-encoded NRRD file read in place (pread, so the page
// cache, not the process, holds what was read), a synthetic field generated
// plane by plane on every core, or a host callback (a simulation writing its
// output). readPlanes throws Error naming the source when it cannot deliver.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>

#include "volume/readers.h"
#include "volume/volume.h"

namespace isoscope {

class VolumeSource {
public:
    virtual ~VolumeSource() = default;
    // The grid: dims, type, spacing, origin, indexToWorld, source; no samples, no stats.
    const Volume& grid() const { return grid_; }
    uint64_t planeBytes() const { return uint64_t(grid_.dims[0]) * grid_.dims[1] * scalarSize(grid_.type); }
    // Writes planes [firstPlane, firstPlane + planeCount) to `destination`
    // (planeCount * planeBytes() bytes). Calls may come in any order and
    // repeat planes (slabs overlap).
    virtual void readPlanes(uint32_t firstPlane, uint32_t planeCount, std::byte* destination) = 0;

protected:
    explicit VolumeSource(Volume grid) : grid_(std::move(grid)) {}
    // Throws Error unless [firstPlane, firstPlane + planeCount) lies in the grid.
    void checkPlanes(uint32_t firstPlane, uint32_t planeCount) const;

    Volume grid_;
};

// A raw file (sizes and type from `options` or the name) or an NRRD file
// with raw encoding. Throws Error, before reading any sample, for other
// formats, gzip encoding or a file whose length does not match.
std::unique_ptr<VolumeSource> openFileSource(const std::filesystem::path& path, const RawOptions& options = {});

// A synthetic spec (volume/synthetic.h), evaluated plane by plane. float32
// holds the field as makeSyntheticVolume does; uint8 holds
// syntheticByte(field) (the field's [-1, 1] onto 0..255).
std::unique_ptr<VolumeSource> openSyntheticSource(std::string_view spec, ScalarType type = ScalarType::Float32);

// The host's own samples: `write` fills planes as readPlanes does.
using PlaneWriter = std::function<void(uint32_t firstPlane, uint32_t planeCount, std::byte* destination)>;
std::unique_ptr<VolumeSource> makeCallbackSource(Volume grid, PlaneWriter write);

// openSyntheticSource for a spec (`type` given or float32), else
// openFileSource; `type` for a file is options.type.
std::unique_ptr<VolumeSource> openVolumeSource(std::string_view pathOrSpec, const RawOptions& options = {},
                                               std::optional<ScalarType> syntheticType = {});

// All of a source's planes as one Volume with stats (tests, and in-core
// extraction of what a source holds).
Volume readWholeVolume(VolumeSource& source);

} // namespace isoscope
