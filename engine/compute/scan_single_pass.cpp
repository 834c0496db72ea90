#include "compute/scan_single_pass.h"

#include <algorithm>

#include "compute/scan_push.h"
#include "core/context.h"
#include "core/error.h"
#include "graph/render_graph.h"

namespace isoscope {

namespace {

constexpr uint64_t kTotalsBytes = 16;

constexpr uint64_t kControlAlignment = 256; // >= every device's minStorageBufferOffsetAlignment
constexpr uint64_t kWordsPerValue = 3;      // 64 bits in three words of 31 bits and a valid bit
// Packed states keep values modulo 2^62: exact totals need sums below that,
// which 2^30 elements of uint32 (each below 2^32) are.
constexpr uint64_t kMaxPackedCount = uint64_t(1) << 30;


// Fallback count, then one ticket counter per segment.
uint64_t controlBytes(const ScanLayout& layout, uint64_t maxCount)
{
    uint64_t segments = std::max<uint64_t>(1, ceilDiv(maxCount, layout.segmentElements));
    return ceilDiv(4 * (1 + segments), kControlAlignment) * kControlAlignment;
}

// Wider than the reduce-then-scan passes' 256: half as many tiles to look
// back over; but with 64-bit states two-word scans are faster at 256
// (figures: docs/BENCHMARKS.md, "Why the code is as it is").
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
    return controlBytes(layout, maxCount) + tiles * tileStateBytes(sumComponents, packed) + kTotalsBytes;
}

SinglePassScan::SinglePassScan(Context& context, uint32_t components, bool select, uint64_t maxCount,
                               const ScanOptions& options, const std::string& what)
    : components_(components), select_(select), maxCount_(maxCount), what_(what),
      packed_(usesPackedStates(context, select, maxCount, options)),
      layout_(scanLayout(context, components, withDefaults(options, select ? 1 : components, packed_))),
      program_(context, loadShader(packed_ ? "compute/scan_single_pass_packed" : "compute/scan_single_pass"),
               {{"WORKGROUP_SIZE", layout_.workgroupSize},
                {"ITEMS", layout_.items},
                {"COMPONENTS", components},
                {"SELECT", select ? 1u : 0u},
                {"FORCE_FALLBACK_EVERY", options.forceFallbackEvery}})
{
    checkPushLayout(program_.name(), program_.pushMembers(), singlePassPushMembers());
    if (components != 1 && components != 2)
        fail(what + ": elements of " + std::to_string(components) + " components; the scan takes 1 or 2");
    uint64_t tiles = std::max<uint64_t>(1, ceilDiv(maxCount, layout_.tileElements));
    if (tiles > UINT32_MAX)
        fail(what + " of " + std::to_string(maxCount) + " elements needs more than 2^32 tiles: split the input");
    if (stateBytes(tiles) > context.info().maxStorageBufferRange)
        fail(what + " needs " + formatBytes(stateBytes(tiles)) + " of tile states in one binding; " +
             context.info().name + " binds at most " + formatBytes(context.info().maxStorageBufferRange) +
             ": split the input");
    controlBytes_ = controlBytes(layout_, maxCount);
    maxStateBytes_ = stateBytes(tiles);
}

uint64_t SinglePassScan::scratchBytes() const { return controlBytes_ + maxStateBytes_ + kTotalsBytes; }

uint64_t SinglePassScan::stateBytes(uint64_t tiles) const
{
    return tiles * tileStateBytes(select_ ? 1 : components_, packed_);
}

void SinglePassScan::addPasses(RenderGraph& graph, const std::string& name, ResourceId scratch, GraphSpan input,
                               GraphSpan output, uint64_t count, uint64_t outputWords, GraphSpan totals) const
{
    checkScanCount(count, maxCount_, what_);
    checkVectorAligned(input, what_, "input");
    checkVectorAligned(output, what_, "output");
    const uint64_t tiles = std::max<uint64_t>(1, ceilDiv(count, layout_.tileElements));
    const uint64_t control = controlBytes_;
    const uint64_t states = stateBytes(tiles);
    const uint32_t sumComponents = select_ ? 1 : components_;
    GraphSpan totalWords = totals.resource != kNoResource ? totals : GraphSpan{scratch, control + maxStateBytes_};

    // The states start at zero each time.
    graph.addPass(name + " clear", PassKind::Transfer, {{scratch, Use::TransferDst}},
                  [scratch, control, states](VkCommandBuffer cmd, const RenderGraph& g) {
                      vkCmdFillBuffer(cmd, g.buffer(scratch), 0, control + states, 0);
                  });
    std::vector<ResourceUse> uses = {{input.resource, Use::StorageRead, 0},  {output.resource, Use::StorageWrite, 1},
                                     {scratch, Use::StorageWrite, 2},        {scratch, Use::StorageWrite, 3},
                                     {totalWords.resource, Use::StorageWrite, 4}, {input.resource, Use::StorageRead, 5},
                                     {output.resource, Use::StorageWrite, 6}};
    const uint64_t elementBytes = 4ull * components_;
    // One workgroup with nothing to read writes the zero totals; its input
    // and output bindings are a few of the control words, never accessed.
    struct Segment {
        uint64_t start, n;
        uint32_t firstBlock, blocks, index;
    };
    std::vector<Segment> segments;
    if (count == 0)
        segments.push_back({0, 0, 0, 1, 0});
    forEachScanSegment(layout_, count, [&](uint64_t start, uint64_t n, uint32_t firstBlock, uint32_t blocks) {
        segments.push_back({start, n, firstBlock, blocks, uint32_t(segments.size())});
    });
    for (const Segment& segment : segments) {
        // Each segment's look-back reads the states the earlier ones published: a pass each.
        graph.addComputePass(
            name, program_, uses,
            [this, scratch, input, output, count, outputWords, totalWords, segment, tiles, control, states,
             sumComponents, elementBytes](VkCommandBuffer cmd, const RenderGraph& g) {
                SinglePassPush push{uint32_t(segment.n), segment.firstBlock, segment.blocks, uint32_t(segment.start),
                                    segment.index, uint32_t(tiles - 1)};
                VkBuffer scratchBuffer = g.buffer(scratch);
                DescriptorInfo controlWords(scratchBuffer, 0, control);
                DescriptorInfo stateWords(scratchBuffer, control, states);
                DescriptorInfo totalBinding(g.buffer(totalWords.resource), totalWords.offset, 8 * sumComponents);
                DescriptorInfo in(scratchBuffer, 0, 16), out(scratchBuffer, 0, 16);
                if (count != 0) {
                    VkBuffer outBuffer = g.buffer(output.resource);
                    // A scan writes the segment's own range; a compaction writes indices
                    // anywhere below the selected count, so it binds the whole list.
                    out = select_ ? DescriptorInfo(outBuffer, output.offset, std::max<uint64_t>(4, outputWords * 4))
                                  : DescriptorInfo(outBuffer, output.offset + segment.start * elementBytes,
                                                   segment.n * elementBytes);
                    in = DescriptorInfo(g.buffer(input.resource), input.offset + segment.start * elementBytes,
                                        segment.n * elementBytes);
                }
                program_.bind(cmd, {in, out, controlWords, stateWords, totalBinding, vectorsOf(in), vectorsOf(out)},
                              &push, sizeof push);
                // Tiles are taken from the ticket counter, so the grid's shape does not matter.
                program_.dispatchLine(cmd, segment.blocks);
            });
    }
}

} // namespace isoscope
