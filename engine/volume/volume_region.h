#pragma once
// A box of a volume's samples that changed (time-varying data): where the
// new samples go in the CPU copy, and which of them each derived structure
// (value ranges per block or brick) must derive again.
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "volume/volume.h"

namespace isoscope {

struct VolumeRegion {
    std::array<uint32_t, 3> offset{0, 0, 0}; // the first sample, x y z
    std::array<uint32_t, 3> extent{0, 0, 0}; // samples along x y z
    uint64_t sampleCount() const { return uint64_t(extent[0]) * extent[1] * extent[2]; }
};

// Throws Error, naming the parameter (`what` says the caller, e.g.
// "Volume::update"), unless `region` is a non-empty box inside the volume,
// `samples` is not null and `bytes` holds exactly its samples of the
// volume's type. Non-finite samples are refused for a volume made without
// any: the extractors were specialised for finite data when they were built.
void checkRegionUpdate(const Volume& volume, const VolumeRegion& region, const void* samples, size_t bytes,
                       const std::string& what);

// Calls `row` for each x-row of the region: its first sample's linear index
// in a volume of `dims` and its index among the region's rows (z-major).
void forEachRegionRow(std::array<uint32_t, 3> dims, const VolumeRegion& region,
                      const std::function<void(uint64_t volumeIndex, uint64_t regionRow)>& row);

// Copies the region's samples (x fastest, as checkRegionUpdate checked) into
// volume.data, where the volume keeps its samples on the host, and updates
// volume.stats: min and max widen to the new samples but never narrow
// (narrowing would need every sample read again); with a host copy the
// non-finite count and the mean follow exactly, without one they stay.
void writeRegion(Volume& volume, const VolumeRegion& region, const void* samples);

} // namespace isoscope
