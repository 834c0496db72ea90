#include "compute/scan_single_pass.h"

#include <algorithm>

#include "core/barrier.h"
#include "core/context.h"
#include "core/error.h"

namespace isoscope {

namespace {

constexpr uint64_t kControlAlignment = 256; // >= every device's minStorageBufferOffsetAlignment
constexpr uint64_t kWordsPerValue = 3;      // 64 bits in three words of 31 bits and a valid bit
// Packed states keep values modulo 2^62: exact totals need sums below that,
// which 2^30 elements of uint32 (each below 2^32) are.
constexpr uint64_t kMaxPackedCount = uint64_t(1) << 30;

uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// Fallback count, then one ticket counter per segment.
uint64_t controlBytes(const ScanLayout& layout, uint64_t maxCount)
{
    uint64_t segments = std::max<uint64_t>(1, ceilDiv(maxCount, layout.segmentElements));
    return ceilDiv(4 * (1 + segments), kControlAlignment) * kControlAlignment;
}

// Wider than the reduce-then-scan passes' 256: half as many tiles to look
// back over (H100, docs/BENCHMARKS.md, 32-bit states: 135M one-word elements
// 0.519 -> 0.482 ms, 4 GiB 4.06 -> 3.77; two-word 1.278 -> 1.208 at 1 GiB,
// unchanged at 8 GiB; 1024 was slower). With 64-bit states two-word scans
// are faster in workgroups of 256 (2^30 elements: 8.85 -> 7.96 ms).
constexpr uint32_t kWorkgroupSize = 512;
constexpr uint32_t kPackedTwoWordWorkgroupSize = 256;

// Aggregate and inclusive prefix in three words each, or one 64-bit word.
uint64_t tileStateBytes(uint32_t sumComponents, bool packed)
{
    return (packed ? 8 : 2 * kWordsPerValue * 4) * sumComponents;
}

} // namespace

bool SinglePassScan::usesPackedStates(const Context& context, bool select, uint64_t maxCount, const ScanOptions& options)
{
    const auto& features = context.info().features;
    return options.packedTileStates && features.shaderInt64 && features.shaderBufferInt64Atomics &&
           (select || maxCount <= kMaxPackedCount);
}

ScanOptions SinglePassScan::withDefaults(ScanOptions options, uint32_t sumComponents, bool packed)
{
    if (options.workgroupSize == 0)
        options.workgroupSize = packed && sumComponents == 2 ? kPackedTwoWordWorkgroupSize : kWorkgroupSize;
    return options;
}

uint64_t SinglePassScan::scratchBytesFor(const Context& context, uint32_t components, bool select, uint64_t maxCount)
{
    bool packed = usesPackedStates(context, select, maxCount, {});
    uint32_t sumComponents = select ? 1 : components;
    ScanLayout layout = scanLayout(context, components, withDefaults({}, sumComponents, packed));
    uint64_t tiles = std::max<uint64_t>(1, ceilDiv(maxCount, layout.tileElements));
    return controlBytes(layout, maxCount) + tiles * tileStateBytes(sumComponents, packed) + 16 /* totals */;
}

SinglePassScan::SinglePassScan(Context& context, uint32_t components, bool select, uint64_t maxCount,
                               const ScanOptions& options, const std::string& what)
    : context_(context), components_(components), select_(select), maxCount_(maxCount), what_(what),
      packed_(usesPackedStates(context, select, maxCount, options)),
      layout_(scanLayout(context, components, withDefaults(options, select ? 1 : components, packed_))),
      program_(context, loadShader(packed_ ? "compute/scan_single_pass_packed" : "compute/scan_single_pass"),
               {{"WORKGROUP_SIZE", layout_.workgroupSize},
                {"ITEMS", layout_.items},
                {"COMPONENTS", components},
                {"SELECT", select ? 1u : 0u},
                {"FORCE_FALLBACK_EVERY", options.forceFallbackEvery}})
{
    if (components != 1 && components != 2)
        fail(what + ": elements of " + std::to_string(components) + " components; the scan takes 1 or 2");
    uint64_t tiles = std::max<uint64_t>(1, ceilDiv(maxCount, layout_.tileElements));
    if (tiles > UINT32_MAX)
        fail(what + " of " + std::to_string(maxCount) + " elements needs more than 2^32 tiles: split the input");
    if (stateBytes(tiles) > context.info().maxStorageBufferRange)
        fail(what + " needs " + formatBytes(stateBytes(tiles)) + " of tile states in one binding; " +
             context.info().name + " binds at most " + formatBytes(context.info().maxStorageBufferRange) +
             ": split the input");
    state_ = context.allocator().createBuffer(controlBytes(layout_, maxCount) + stateBytes(tiles),
                                              VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                                  VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                              MemoryUsage::DeviceLocal, what + " tile states");
    totals_ = context.allocator().createBuffer(16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                               MemoryUsage::DeviceLocal, what + " totals");
}

uint64_t SinglePassScan::stateBytes(uint64_t tiles) const
{
    return tiles * tileStateBytes(select_ ? 1 : components_, packed_);
}

void SinglePassScan::record(VkCommandBuffer cmd, BufferSpan input, BufferSpan output, uint64_t count,
                            uint64_t outputWords, BufferSpan totals) const
{
    checkScanCount(count, maxCount_, what_);
    checkVectorAligned(input, what_, "input");
    checkVectorAligned(output, what_, "output");
    const uint64_t tiles = std::max<uint64_t>(1, ceilDiv(count, layout_.tileElements));
    const uint64_t control = controlBytes(layout_, maxCount_);
    const uint32_t sumComponents = select_ ? 1 : components_;

    // The states start at zero each time: earlier records' shader accesses
    // first, then the fill, then this record's shaders.
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                  VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    vkCmdFillBuffer(cmd, state_.buffer, 0, control + stateBytes(tiles), 0);
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                  VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);

    DescriptorInfo controlWords(state_.buffer, 0, control);
    DescriptorInfo states(state_.buffer, control, stateBytes(tiles));
    DescriptorInfo totalWords = totals.buffer ? DescriptorInfo(totals.buffer, totals.offset, 8 * sumComponents)
                                              : DescriptorInfo(totals_.buffer, 0, 8 * sumComponents);
    const uint64_t elementBytes = 4ull * components_;
    uint32_t segment = 0;
    auto dispatch = [&](uint64_t start, uint64_t n, uint32_t firstBlock, uint32_t blocks, DescriptorInfo in,
                        DescriptorInfo out) {
        struct {
            uint32_t count, firstBlock, blockCount, firstIndex, segment, lastBlock;
        } push{uint32_t(n), firstBlock, blocks, uint32_t(start), segment, uint32_t(tiles - 1)};
        program_.bind(cmd, {in, out, controlWords, states, totalWords, vectorsOf(in), vectorsOf(out)}, &push,
                      sizeof push);
        // Tiles are taken from the ticket counter, so the grid's shape does not matter.
        dispatchTiles(cmd, context_, program_, blocks);
    };
    if (count == 0) {
        // One workgroup with nothing to read writes the zero totals; its
        // input and output bindings are a few of the control words, never accessed.
        DescriptorInfo none(state_.buffer, 0, 16);
        dispatch(0, 0, 0, 1, none, none);
    }
    forEachScanSegment(layout_, count, [&](uint64_t start, uint64_t n, uint32_t firstBlock, uint32_t blocks) {
        if (segment > 0)
            computeToComputeBarrier(cmd); // earlier segments' states before this one's look-back
        // A scan writes the segment's own range; a compaction writes indices
        // anywhere below the selected count, so it binds the whole list.
        DescriptorInfo out = select_ ? DescriptorInfo(output.buffer, output.offset, std::max<uint64_t>(4, outputWords * 4))
                                     : DescriptorInfo(output.buffer, output.offset + start * elementBytes, n * elementBytes);
        DescriptorInfo in(input.buffer, input.offset + start * elementBytes, n * elementBytes);
        dispatch(start, n, firstBlock, blocks, in, out);
        ++segment;
    });
    computeOutputBarrier(cmd);
}

} // namespace isoscope
