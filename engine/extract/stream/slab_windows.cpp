#include "extract/stream/slab_windows.h"

#include <algorithm>
#include <array>
#include <string>

#include "core/error.h"
#include "core/memory.h"
#include "volume/gpu_volume.h"

namespace isoscope {

namespace {

// Slab images of at most 512 MiB (~11 ms of upload at the H100's 45-50
// GB/s): half the staging pinned before the first upload that 1 GiB
// needed, per-slab costs (graphs, submissions) still small; 256 MiB slabs
// were slower (docs/BENCHMARKS.md, "the mesh collector's growth off the
// critical path").
constexpr uint64_t kSlabImageBytes = uint64_t(512) << 20;

uint64_t blocksOf(const Volume& grid, uint32_t planes, std::array<uint32_t, 3> block)
{
    return uint64_t((grid.dims[0] + block[0] - 1) / block[0]) * ((grid.dims[1] + block[1] - 1) / block[1]) *
           ((planes + block[2] - 1) / block[2]);
}

} // namespace

SlabWindow slabWindow(uint32_t nz, uint32_t z0, uint32_t layers)
{
    SlabWindow w;
    w.z0 = z0;
    w.z1 = std::min(z0 + layers, nz - 1);
    w.below = z0 > 0 ? 1 : 0;
    w.above = w.z1 + 1 < nz ? 1 : 0;
    return w;
}

uint32_t sharedPlanes(const SlabWindow& w)
{
    return w.z0 == 0 ? 0 : std::min(kOverlapPlanes, w.imagePlanes() - 1);
}

SlabWindow subWindow(const SlabWindow& w, uint32_t z0, uint32_t z1)
{
    SlabWindow part;
    part.z0 = z0;
    part.z1 = z1;
    part.below = z0 - w.firstImagePlane();
    return part;
}

uint64_t streamSlabBytes(const SlabMethod& method, const Volume& grid, uint32_t cellLayers)
{
    uint64_t planeTexels = uint64_t(grid.dims[0]) * grid.dims[1];
    uint64_t imagePlanes = uint64_t(cellLayers) + 3; // the grid's planes and one either side
    uint64_t image = planeTexels * imagePlanes * method.texelBytes();
    // A ring of two slots (one slab uploads while the one before extracts):
    // two slab volumes and, where the staging is device memory, two of
    // their size (one slab's staging is held: the second counted keeps the
    // slab plans of the two-staging ring), and the work of two extractors
    // (one per volume, each keeping its graph and so its transients: the
    // method's passes read the slab's placement when they record).
    return image * (method.stagingOnDevice() ? 4 : 2) + method.workBytes(cellLayers) * 2;
}

uint32_t planSlabLayers(const SlabMethod& method, const Volume& grid, uint64_t budget, bool capImage)
{
    uint32_t cells = grid.dims[2] - 1;
    uint64_t one = streamSlabBytes(method, grid, 1);
    if (one > budget)
        fail("streaming '" + grid.source + "' (" + std::to_string(grid.dims[0]) + "x" + std::to_string(grid.dims[1]) +
             "x" + std::to_string(grid.dims[2]) + " " + std::string(scalarName(grid.type)) + "): a slab of one cell "
             "layer needs " + formatBytes(one) + " (its 4 planes in the ring's two slab volumes and, where staging "
             "is device memory, as much staging, and the " + method.name() + " method's work buffers), more "
             "than the device budget of " + formatBytes(budget) + ": give a larger --device-budget");
    // The largest layer count whose slab takes at most half the budget, and
    // whose image holds at most kSlabImageBytes: more, smaller slabs keep
    // reading, upload, extraction and read-back in step (the first slab's
    // read and the last's read-back overlap nothing) and the pinned staging small.
    uint64_t planeBytes = uint64_t(grid.dims[0]) * grid.dims[1] * method.texelBytes();
    uint64_t imagePlanes = capImage ? kSlabImageBytes / planeBytes : uint64_t(cells) + 3;
    uint32_t high = uint32_t(std::clamp<uint64_t>(imagePlanes, 4, uint64_t(cells) + 3) - 3);
    uint32_t low = 1;
    while (low < high) {
        uint32_t mid = low + (high - low + 1) / 2;
        if (streamSlabBytes(method, grid, mid) <= budget / 2)
            low = mid;
        else
            high = mid - 1;
    }
    return low;
}

bool needsStreaming(const Context& context, const Volume& grid, uint64_t budget)
{
    if (grid.dims[2] < 2)
        return false;
    uint64_t planeTexels = uint64_t(grid.dims[0]) * grid.dims[1];
    uint64_t image = planeTexels * grid.dims[2] * volumeTexelBytes(context, grid.type);
    uint64_t blocks = blocksOf(grid, grid.dims[2], {8, 4, 4});
    // In core: the image, the block method's buffers, and room for a first mesh of a quarter of its size.
    return image + blocks * 6 + image / 4 > budget;
}

} // namespace isoscope
