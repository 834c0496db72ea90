#include "extract/scan/slab_plan.h"

#include <algorithm>

#include "compute/block_sum_scan.h"
#include "compute/scan_passes.h"
#include "core/context.h"
#include "core/error.h"
#include "extract/case_table_gpu.h"

namespace isoscope {

namespace {

constexpr uint64_t kSmallBufferBytes = 16; // slab base, dispatch arguments, list needed (each allocated at least 16)
constexpr uint64_t kSlabTotalsBytes = 24;  // three uint64
constexpr uint64_t kListEntryBytes = 16;
constexpr uint32_t kMaxTilePoints = 4096;  // classify_spans.glsl: the packed 16-bit sums
constexpr uint32_t kMaxColumnTiles = 16;    // scanColumnTiles
constexpr uint64_t kMinCountGroups = 4096; // scanColumnTiles

uint64_t slabPoints(std::array<uint32_t, 3> dims, uint32_t cellLayers)
{
    return uint64_t(dims[0]) * dims[1] * (uint64_t(cellLayers) + 1);
}

uint64_t slabRows(std::array<uint32_t, 3> dims, uint32_t cellLayers) { return uint64_t(dims[1]) * (cellLayers + 1ull); }

uint64_t slabTiles(const ScanTiling& tiling, std::array<uint32_t, 3> dims, uint32_t cellLayers)
{
    return scanSlabTiles(tiling, dims, uint64_t(cellLayers) + 1);
}

uint64_t listEntries(std::array<uint32_t, 3> dims, uint32_t cellLayers, uint64_t minEntries)
{
    return std::min(slabPoints(dims, cellLayers), std::max(minEntries, scanListCapacity(dims, cellLayers)));
}

uint64_t bindingLimit(const Context& context, const SlabBindings& bindings)
{
    uint64_t device = context.info().maxStorageBufferRange;
    return bindings.maxBindingBytes ? std::min(bindings.maxBindingBytes, device) : device;
}

// 16 bytes at least: classify_spans.glsl reads uint8 samples sixteen and
// float32 and 16-bit samples four at a time through views of the range as 16-byte and 8-byte vectors.
uint64_t rangeAlignment(const Context& context)
{
    return std::max<uint64_t>(context.info().minStorageBufferOffsetAlignment, 16);
}

// The most bytes of the volume any slab of `cellLayers` layers binds
// (slabVolumeRange): its planes and one on either side, the alignment slack
// before them and the rounding to whole words after.
uint64_t maxVolumeRangeBytes(const Context& context, std::array<uint32_t, 3> dims, uint32_t cellLayers,
                             uint32_t sampleBytes)
{
    uint64_t planes = std::min<uint64_t>(uint64_t(cellLayers) + 3, dims[2]);
    uint64_t slack = planes == dims[2] ? 3 : rangeAlignment(context) + 3;
    return planes * dims[0] * dims[1] * sampleBytes + slack;
}

// Every buffer a slab binds whole must fit one binding, and point indices are 32-bit.
bool fitsBindings(const Context& context, std::array<uint32_t, 3> dims, uint32_t cellLayers, uint64_t entries,
                  const SlabBindings& bindings)
{
    uint64_t range = bindingLimit(context, bindings);
    ScanTiling tiling = scanTiling(context);
    uint64_t tiles = slabTiles(tiling, dims, cellLayers);
    return slabPoints(dims, cellLayers) <= UINT32_MAX && entries * kListEntryBytes <= range &&
           (slabRows(dims, cellLayers) + 1) * 4 <= range &&
           tiles * 3 * 8 <= range && tiles * tiling.tileBitWords() * 4 <= range &&
           maxVolumeRangeBytes(context, dims, cellLayers, bindings.sampleBytes) <= range;
}

} // namespace

ScanTiling scanTiling(const Context& context)
{
    ScanLayout layout = scanLayout(context, 1, {});
    ScanTiling tiling;
    tiling.workgroupSize = layout.workgroupSize; // the scan primitive's element passes: 256 where allowed
    tiling.items = std::max<uint32_t>(1, kMaxTilePoints / kScanSpanPoints / tiling.workgroupSize);
    tiling.tileSpans = tiling.workgroupSize * tiling.items;
    tiling.span = layout.span;
    if (tiling.tileSpans * kScanSpanPoints > kMaxTilePoints)
        fail("scan method: workgroups of " + std::to_string(tiling.workgroupSize) +
             " invocations classify more than 4096 points a tile, past its packed 16-bit sums (engine bug)");
    return tiling;
}

uint64_t scanPlaneTiles(const ScanTiling& tiling, std::array<uint32_t, 3> dims)
{
    uint64_t spans = (uint64_t(dims[0]) + kScanSpanPoints - 1) / kScanSpanPoints * dims[1];
    return (spans + tiling.tileSpans - 1) / tiling.tileSpans;
}

uint32_t scanListWorkgroup(const ScanTiling& tiling, uint32_t subgroupSize, uint64_t slabTiles, uint32_t requested)
{
    if (requested) {
        if (requested % subgroupSize != 0 || requested > tiling.workgroupSize || tiling.tileSpans % requested != 0)
            fail("scan method: a list workgroup of " + std::to_string(requested) +
                 " invocations (--scan-list-workgroup) must be a multiple of the subgroup size " +
                 std::to_string(subgroupSize) + " that divides a tile of " + std::to_string(tiling.tileSpans) +
                 " spans, at most " + std::to_string(tiling.workgroupSize));
        return requested;
    }
    uint32_t size = std::max<uint32_t>(64, subgroupSize);
    bool narrow = slabTiles >= kScanNarrowListFromTiles && size < tiling.workgroupSize && tiling.tileSpans % size == 0;
    return narrow ? size : tiling.workgroupSize;
}

uint64_t scanSlabTiles(const ScanTiling& tiling, std::array<uint32_t, 3> dims, uint64_t planes)
{
    return scanPlaneTiles(tiling, dims) * planes;
}

uint32_t scanColumnTiles(const ScanTiling& tiling, std::array<uint32_t, 3> dims, uint64_t planes, uint32_t requested)
{
    if (requested) {
        if (requested > kMaxColumnTiles)
            fail("scan method: columns of " + std::to_string(requested) + " tiles (--scan-column): 1 to " +
                 std::to_string(kMaxColumnTiles));
        return requested;
    }
    uint32_t column = kMaxColumnTiles;
    while (column > 1 && scanPlaneTiles(tiling, dims) * ((planes + column - 1) / column) < kMinCountGroups)
        column /= 2;
    return column;
}

uint64_t scanCountGroups(const ScanTiling& tiling, std::array<uint32_t, 3> dims, uint64_t planes, uint32_t columnTiles)
{
    return scanPlaneTiles(tiling, dims) * ((planes + columnTiles - 1) / columnTiles);
}

uint64_t scanListCapacity(std::array<uint32_t, 3> dims, uint32_t cellLayers)
{
    uint64_t x = dims[0], y = dims[1], z = uint64_t(cellLayers) + 1;
    return std::min(slabPoints(dims, cellLayers), 2 * (x * y + z * (x + y)) + 4096);
}

uint64_t scanSlabBytes(const Context& context, std::array<uint32_t, 3> dims, uint32_t cellLayers, bool multipleSlabs,
                       bool weld, uint64_t listCapacity)
{
    ScanTiling tiling = scanTiling(context);
    uint64_t entries = listCapacity ? listCapacity : scanListCapacity(dims, cellLayers);
    uint64_t planeBytes = uint64_t(dims[0]) * dims[1] * 8;
    uint64_t seams = 2 * (multipleSlabs && weld ? std::max(planeBytes, kSmallBufferBytes) : kSmallBufferBytes);
    uint64_t tiles = slabTiles(tiling, dims, cellLayers);
    return BlockSumScan::scratchBytesFor(tiling.span, 3, tiles) + std::max<uint64_t>(tiles * tiling.tileBitWords() * 4, 16) +
           (slabRows(dims, cellLayers) + 1) * 4 + std::max(entries, uint64_t(1)) * kListEntryBytes + seams +
           256 * kCaseTableGpuBytesPerCase + kSlabTotalsBytes + 3 * kSmallBufferBytes;
}

SlabPlan planSlabs(const Context& context, std::array<uint32_t, 3> dims, uint64_t budgetBytes, bool weld,
                   uint64_t minListEntries, SlabBindings bindings)
{
    SlabPlan plan;
    if (dims[0] < 2 || dims[1] < 2 || dims[2] < 2)
        return plan;
    uint32_t layers = dims[2] - 1;
    auto fits = [&](uint32_t cellLayers, bool multiple) {
        uint64_t entries = listEntries(dims, cellLayers, minListEntries);
        return fitsBindings(context, dims, cellLayers, entries, bindings) &&
               scanSlabBytes(context, dims, cellLayers, multiple, weld, entries) <= budgetBytes;
    };
    if (!fits(layers, false)) {
        if (!fits(1, true))
            fail("the scan method needs " +
                 formatBytes(scanSlabBytes(context, dims, 1, true, weld, listEntries(dims, 1, minListEntries))) +
                 " for even one cell layer of a " + std::to_string(dims[0]) + "x" + std::to_string(dims[1]) +
                 " plane and " + formatBytes(maxVolumeRangeBytes(context, dims, 1, bindings.sampleBytes)) +
                 " of its volume (budget " + formatBytes(budgetBytes) + ", one binding at most " +
                 formatBytes(bindingLimit(context, bindings)) +
                 "): raise --budget, free device memory, or use the block method");
        uint32_t low = 1, high = layers; // fits(low), !fits(high)
        while (high - low > 1) {
            uint32_t middle = low + (high - low) / 2;
            (fits(middle, true) ? low : high) = middle;
        }
        // As few slabs as the thickest fitting one allows, but equally thick,
        // so no buffer is sized for a slab thicker than the others need.
        uint32_t slabs = (layers + low - 1) / low;
        layers = (dims[2] - 1 + slabs - 1) / slabs;
    }
    plan.cellLayersPerSlab = layers;
    plan.slabCount = (dims[2] - 1 + layers - 1) / layers;
    plan.maxSlabPoints = slabPoints(dims, layers);
    plan.maxSlabRows = slabRows(dims, layers);
    plan.maxSlabTiles = slabTiles(scanTiling(context), dims, layers);
    plan.listCapacity = listEntries(dims, layers, minListEntries);
    plan.plannedBytes = scanSlabBytes(context, dims, layers, plan.slabCount > 1, weld, plan.listCapacity);
    return plan;
}

SlabVolumeRange slabVolumeRange(const Context& context, std::array<uint32_t, 3> dims, uint32_t sampleBytes,
                                uint32_t z0, uint32_t planes)
{
    uint64_t planeBytes = uint64_t(dims[0]) * dims[1] * sampleBytes;
    uint64_t bufferBytes = (planeBytes * dims[2] + 3) & ~uint64_t(3); // gpu_volume.cpp: whole words
    SlabVolumeRange range;
    range.firstPlane = z0 > 0 ? z0 - 1 : 0;
    uint32_t endPlane = std::min(z0 + planes + 1, dims[2]);
    uint64_t first = range.firstPlane * planeBytes;
    range.offset = first - first % rangeAlignment(context);
    range.bytes = std::min(bufferBytes, (endPlane * planeBytes + 3) & ~uint64_t(3)) - range.offset;
    range.firstSample = uint32_t((first - range.offset) / sampleBytes);
    return range;
}

} // namespace isoscope
