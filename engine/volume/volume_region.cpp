#include "volume/volume_region.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "core/error.h"

namespace isoscope {

namespace {

std::string axisText(const char* what, int axis) { return std::string(what) + "[" + std::to_string(axis) + "]"; }

} // namespace

void checkRegionUpdate(const Volume& volume, const VolumeRegion& region, const void* samples, size_t bytes,
                       const std::string& what)
{
    for (int axis = 0; axis < 3; ++axis) {
        if (region.extent[axis] == 0)
            fail(what + ": " + axisText("region.extent", axis) + " is 0; give a region of at least one sample a side");
        uint64_t end = uint64_t(region.offset[axis]) + region.extent[axis];
        if (end > volume.dims[axis])
            fail(what + ": " + axisText("region.offset", axis) + " + " + axisText("region.extent", axis) + " is " +
                 std::to_string(end) + ", past the volume's " + std::to_string(volume.dims[axis]) +
                 " samples on that axis; keep the region inside the volume");
    }
    if (!samples)
        fail(what + ": samples is null; give the region's samples, x fastest");
    uint64_t expected = region.sampleCount() * scalarSize(volume.type);
    if (bytes != expected)
        fail(what + ": bytes is " + std::to_string(bytes) + "; a region of " + std::to_string(region.extent[0]) +
             "x" + std::to_string(region.extent[1]) + "x" + std::to_string(region.extent[2]) + " " +
             std::string(scalarName(volume.type)) + " samples needs " + std::to_string(expected));
    if (volume.stats.nonFinite == 0) {
        VolumeStats stats = sampleStats(volume.type, static_cast<const std::byte*>(samples), region.sampleCount());
        if (stats.nonFinite)
            fail(what + ": samples hold " + std::to_string(stats.nonFinite) +
                 " non-finite values, and the volume was made without any (its extractors were built for "
                 "finite data): give finite samples, or make the volume with non-finite samples from the start");
    }
}

void forEachRegionRow(std::array<uint32_t, 3> dims, const VolumeRegion& region,
                      const std::function<void(uint64_t volumeIndex, uint64_t regionRow)>& row)
{
    uint64_t regionRow = 0;
    for (uint32_t z = region.offset[2]; z < region.offset[2] + region.extent[2]; ++z)
        for (uint32_t y = region.offset[1]; y < region.offset[1] + region.extent[1]; ++y)
            row((uint64_t(z) * dims[1] + y) * dims[0] + region.offset[0], regionRow++);
}

namespace {

// Min and max widened to `added`'s finite samples.
void widenRange(VolumeStats& stats, const VolumeStats& added, uint64_t addedCount, bool hadFinite)
{
    if (added.nonFinite == addedCount)
        return;
    stats.min = hadFinite ? std::min(stats.min, added.min) : added.min;
    stats.max = hadFinite ? std::max(stats.max, added.max) : added.max;
}

} // namespace

void writeRegion(Volume& volume, const VolumeRegion& region, const void* samples)
{
    const uint64_t count = region.sampleCount(), total = volume.sampleCount();
    const auto* from = static_cast<const std::byte*>(samples);
    VolumeStats after = sampleStats(volume.type, from, count);
    VolumeStats& stats = volume.stats;
    const uint64_t finiteBefore = total - stats.nonFinite;
    if (volume.data.empty()) { // no host copy (fromMemory): nothing to subtract what left from
        widenRange(stats, after, count, finiteBefore > 0);
        return;
    }
    const size_t rowBytes = size_t(region.extent[0]) * scalarSize(volume.type);
    std::vector<std::byte> previous(count * scalarSize(volume.type));
    forEachRegionRow(volume.dims, region, [&](uint64_t index, uint64_t row) {
        std::byte* at = volume.data.data() + index * scalarSize(volume.type);
        std::memcpy(previous.data() + row * rowBytes, at, rowBytes);
        std::memcpy(at, from + row * rowBytes, rowBytes);
    });

    // The stats move by what left and what came: sums of finite samples and counts.
    VolumeStats before = sampleStats(volume.type, previous.data(), count);
    double sum = stats.mean * double(finiteBefore) - before.mean * double(count - before.nonFinite) +
                 after.mean * double(count - after.nonFinite);
    stats.nonFinite = stats.nonFinite - before.nonFinite + after.nonFinite;
    uint64_t finite = total - stats.nonFinite;
    stats.mean = finite ? sum / double(finite) : 0.0;
    widenRange(stats, after, count, finiteBefore > 0);
}

} // namespace isoscope
