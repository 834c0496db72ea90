#include "extract/scan/slab_plan.h"

#include "compute/compact.h"
#include "compute/scan.h"
#include "core/context.h"
#include "core/error.h"
#include "extract/case_table_gpu.h"

namespace isoscope {

namespace {

constexpr uint64_t kSmallBufferBytes = 16; // counts, totals, bases, dispatch arguments

uint64_t slabPoints(std::array<uint32_t, 3> dims, uint32_t cellLayers)
{
    return uint64_t(dims[0]) * dims[1] * (uint64_t(cellLayers) + 1);
}

// The largest buffer a slab binds whole (its counts, 8 bytes a point) must fit one binding.
bool fitsBinding(const Context& context, uint64_t points)
{
    return points * 8 <= context.info().maxStorageBufferRange && points <= UINT32_MAX;
}

} // namespace

uint64_t scanSlabBytes(const Context& context, std::array<uint32_t, 3> dims, uint32_t cellLayers, bool multipleSlabs,
                       bool weld)
{
    uint64_t points = slabPoints(dims, cellLayers);
    uint64_t planeBytes = uint64_t(dims[0]) * dims[1] * 8;
    uint64_t seams = 2 * (multipleSlabs && weld ? std::max(planeBytes, kSmallBufferBytes) : kSmallBufferBytes);
    return points * 8 + points * 4 + ExclusiveScan::scratchBytesFor(context, 2, points) +
           StreamCompaction::scratchBytesFor(context, 2, points) + seams +
           256 * kCaseTableGpuBytesPerCase + 4 * kSmallBufferBytes;
}

SlabPlan planSlabs(const Context& context, std::array<uint32_t, 3> dims, uint64_t budgetBytes, bool weld)
{
    SlabPlan plan;
    if (dims[0] < 2 || dims[1] < 2 || dims[2] < 2)
        return plan;
    uint32_t layers = dims[2] - 1;
    auto fits = [&](uint32_t cellLayers, bool multiple) {
        return fitsBinding(context, slabPoints(dims, cellLayers)) &&
               scanSlabBytes(context, dims, cellLayers, multiple, weld) <= budgetBytes;
    };
    if (!fits(layers, false)) {
        if (!fits(1, true))
            fail("the scan method needs " + formatBytes(scanSlabBytes(context, dims, 1, true, weld)) +
                 " for even one cell layer of a " + std::to_string(dims[0]) + "x" + std::to_string(dims[1]) +
                 " plane (budget " + formatBytes(budgetBytes) + ", one binding at most " +
                 formatBytes(context.info().maxStorageBufferRange) +
                 "): raise --budget, free device memory, or use the block method");
        uint32_t low = 1, high = layers; // fits(low), !fits(high)
        while (high - low > 1) {
            uint32_t middle = low + (high - low) / 2;
            (fits(middle, true) ? low : high) = middle;
        }
        // As few slabs as the thickest fitting one allows, but equally thick:
        // the binding limit alone would leave a thin last slab (1024^3 on a
        // 4 GiB binding: 511 + 511 + 1 layers) and size every buffer for
        // the thickest (341 + 341 + 341 needs two thirds of that).
        uint32_t slabs = (layers + low - 1) / low;
        layers = (dims[2] - 1 + slabs - 1) / slabs;
    }
    plan.cellLayersPerSlab = layers;
    plan.slabCount = (dims[2] - 1 + layers - 1) / layers;
    plan.maxSlabPoints = slabPoints(dims, layers);
    plan.plannedBytes = scanSlabBytes(context, dims, layers, plan.slabCount > 1, weld);
    return plan;
}

} // namespace isoscope
