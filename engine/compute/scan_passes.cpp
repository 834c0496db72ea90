#include "compute/scan_passes.h"

#include "compute/scan_push.h"

#include <algorithm>
#include <functional>

#include "core/context.h"
#include "core/error.h"
#include "graph/render_graph.h"

namespace isoscope {

namespace {

// Sixteen one-word elements per invocation (eight two-word ones): tiles of
// 16 KiB with 256-wide workgroups, so per-tile work (one workgroup scan, one
// block sum) is small beside the bytes the tile moves, and level 0 has few
// blocks. Tiles
// of at most 65536 elements (scan_reduce's exact 16-bit-half sums).
constexpr uint32_t kItemsPerInvocation = 16; // a multiple of 4: whole 16-byte vectors (scan_common.glsl)
constexpr uint32_t kPreferredWorkgroupSize = 256;
// The block-sum passes: wide workgroups, so a level shrinks by up to 8192.
constexpr uint32_t kBlockItemsPerInvocation = 8;
constexpr uint32_t kPreferredBlockWorkgroupSize = 1024;

// The largest multiple of the subgroup size not above `preferred` that the
// device allows: the scans need full subgroups (scan_common.glsl, scanRank).
uint32_t workgroupSizeFor(const DeviceInfo& info, uint32_t preferred)
{
    uint32_t size = std::min(preferred, info.maxWorkgroupInvocations());
    size -= size % info.subgroupSize;
    if (size == 0)
        fail("device " + info.name + " allows workgroups of " + std::to_string(info.maxWorkgroupInvocations()) +
             " invocations, fewer than one subgroup of " + std::to_string(info.subgroupSize));
    return size;
}

SpecValues specValues(uint32_t workgroupSize, uint32_t items, uint32_t components, bool select)
{
    return {{"WORKGROUP_SIZE", workgroupSize},
            {"ITEMS", items},
            {"COMPONENTS", components},
            {"SELECT", select ? 1u : 0u}};
}


} // namespace

ScanLayout scanLayout(const Context& context, uint32_t components, const ScanOptions& options)
{
    const DeviceInfo& info = context.info();
    ScanLayout layout;
    layout.workgroupSize = workgroupSizeFor(info, options.workgroupSize ? options.workgroupSize : kPreferredWorkgroupSize);
    // Two-word elements take half as many: the same bytes a tile, and half
    // the registers (docs/BENCHMARKS.md).
    layout.items = options.items ? options.items : kItemsPerInvocation / (components == 2 ? 2 : 1);
    if (layout.items % 4 != 0 || layout.items > 64)
        fail("scan with " + std::to_string(layout.items) +
             " elements per invocation: it takes a multiple of 4 (whole 16-byte vectors) up to 64");
    layout.tileElements = layout.workgroupSize * layout.items;
    if (layout.tileElements > 65536)
        fail("scan tiles of " + std::to_string(layout.tileElements) +
             " elements: at most 65536 keep the 16-bit-half sums exact; fewer elements per invocation");
    layout.blockWorkgroupSize = workgroupSizeFor(info, kPreferredBlockWorkgroupSize);
    layout.blockItems = kBlockItemsPerInvocation;
    layout.maxSpan = layout.blockWorkgroupSize * layout.blockItems;
    layout.span = options.span ? std::min(options.span, layout.maxSpan) : layout.maxSpan;
    if (layout.span < 2)
        fail("scan span of " + std::to_string(layout.span) + " block sums: each level must at least halve the one below");
    uint64_t bindingBytes = options.maxBindingBytes ? std::min<uint64_t>(options.maxBindingBytes, info.maxStorageBufferRange)
                                                    : info.maxStorageBufferRange;
    // Element indices inside a segment are 32-bit in the shaders.
    uint64_t elements = std::min<uint64_t>(bindingBytes / (4ull * components), uint64_t(1) << 31);
    layout.segmentElements = std::max<uint64_t>(1, elements / layout.tileElements) * layout.tileElements;
    return layout;
}

std::vector<uint64_t> scanLevelBlocks(const ScanLayout& layout, uint64_t count)
{
    // Segments are whole tiles, so their blocks add up to the tiles of the whole.
    return BlockSumScan::levelBlocks(layout.span, ceilDiv(count, layout.tileElements));
}

uint64_t ScanPasses::scratchBytesFor(const Context& context, uint32_t components, bool select, uint64_t maxCount)
{
    ScanLayout layout = scanLayout(context, components, {});
    return 16 /* totals */ + BlockSumScan::scratchBytesFor(layout.span, select ? 1 : components,
                                                           ceilDiv(maxCount, layout.tileElements));
}

ScanPasses::ScanPasses(Context& context, uint32_t components, bool select, bool downsweep, uint64_t maxCount,
                       const ScanOptions& options, const std::string& what)
    : components_(components), select_(select), maxCount_(maxCount), what_(what),
      layout_(scanLayout(context, components, options)),
      reduce_(context, loadShader("compute/scan_reduce"),
              specValues(layout_.workgroupSize, layout_.items, components, select)),
      levels_(context, layout_, select ? 1 : components, ceilDiv(maxCount, layout_.tileElements), what)
{
    if (components != 1 && components != 2)
        fail(what + ": elements of " + std::to_string(components) + " components; the scan takes 1 or 2");
    if (downsweep)
        downsweep_ = std::make_unique<ComputeProgram>(context, loadShader("compute/scan_downsweep"),
                                                      specValues(layout_.workgroupSize, layout_.items, components, select));
    checkPushLayout(reduce_.name(), reduce_.pushMembers(), scanReducePushMembers());
    if (downsweep_)
        checkPushLayout(downsweep_->name(), downsweep_->pushMembers(), scanDownsweepPushMembers());
}

void checkScanCount(uint64_t count, uint64_t maxCount, const std::string& what)
{
    if (count > maxCount)
        fail(what + " of " + std::to_string(count) + " elements, but it was made for at most " +
             std::to_string(maxCount) + " (engine bug: make it for the longest input)");
}

void checkVectorAligned(GraphSpan span, const std::string& what, const char* role)
{
    if (span.offset % kVectorBytes != 0)
        fail(what + ": its " + role + " starts " + std::to_string(span.offset) +
             " bytes into its buffer; the scan reads and writes 16-byte vectors, so offsets must be multiples of 16");
}

DescriptorInfo vectorsOf(const DescriptorInfo& words)
{
    VkDeviceSize whole = words.buffer.range / kVectorBytes * kVectorBytes;
    return DescriptorInfo(words.buffer.buffer, words.buffer.offset, whole ? whole : words.buffer.range);
}

void forEachScanSegment(const ScanLayout& layout, uint64_t count,
                        const std::function<void(uint64_t, uint64_t, uint32_t, uint32_t)>& segment)
{
    uint32_t firstBlock = 0;
    for (uint64_t start = 0; start < count; start += layout.segmentElements) {
        uint64_t n = std::min(layout.segmentElements, count - start);
        uint32_t blocks = uint32_t(ceilDiv(n, layout.tileElements));
        segment(start, n, firstBlock, blocks);
        firstBlock += blocks;
    }
}

void ScanPasses::addBlockOffsets(RenderGraph& graph, const std::string& name, ResourceId scratch, GraphSpan input,
                                 uint64_t count, GraphSpan totals) const
{
    checkScanCount(count, maxCount_, what_);
    checkVectorAligned(input, what_, "input");
    const uint64_t elementBytes = 4ull * components_;
    graph.addComputePass(name, reduce_,
                         {{input.resource, Use::StorageRead, 0}, {scratch, Use::StorageWrite, 1},
                          {input.resource, Use::StorageRead, 2}},
                         [this, scratch, input, count, elementBytes](VkCommandBuffer cmd, const RenderGraph& g) {
                             forEachScanSegment(layout_, count, [&](uint64_t start, uint64_t n, uint32_t firstBlock,
                                                                    uint32_t blocks) {
                                 ScanReducePush push{uint32_t(n), firstBlock, blocks};
                                 DescriptorInfo in(g.buffer(input.resource), input.offset + start * elementBytes,
                                                   n * elementBytes);
                                 reduce_.bind(cmd, {in, levels_.level0(g, scratch), vectorsOf(in)}, &push, sizeof push);
                                 reduce_.dispatchLine(cmd, blocks);
                             });
                         });
    GraphSpan totalsSpan = totals.resource != kNoResource ? totals : GraphSpan{scratch, levels_.scratchBytes()};
    levels_.addPasses(graph, name, scratch, ceilDiv(count, layout_.tileElements), totalsSpan);
}

void ScanPasses::addDownsweep(RenderGraph& graph, const std::string& name, ResourceId scratch, GraphSpan input,
                              GraphSpan output, uint64_t count, uint64_t outputWords) const
{
    checkScanCount(count, maxCount_, what_);
    checkVectorAligned(input, what_, "input");
    checkVectorAligned(output, what_, "output");
    const uint64_t elementBytes = 4ull * components_;
    graph.addComputePass(
        name, *downsweep_,
        {{input.resource, Use::StorageRead, 0}, {output.resource, Use::StorageWrite, 1}, {scratch, Use::StorageRead, 2},
         {input.resource, Use::StorageRead, 3}, {output.resource, Use::StorageWrite, 4}},
        [this, scratch, input, output, count, outputWords, elementBytes](VkCommandBuffer cmd, const RenderGraph& g) {
            forEachScanSegment(layout_, count, [&](uint64_t start, uint64_t n, uint32_t firstBlock, uint32_t blocks) {
                ScanDownsweepPush push{uint32_t(n), firstBlock, blocks, uint32_t(start)};
                // A scan writes the segment's own range; a compaction writes
                // indices anywhere below the selected count, so it binds the whole list.
                VkBuffer out = g.buffer(output.resource);
                DescriptorInfo outWords =
                    select_ ? DescriptorInfo(out, output.offset, std::max<uint64_t>(4, outputWords * 4))
                            : DescriptorInfo(out, output.offset + start * elementBytes, n * elementBytes);
                DescriptorInfo in(g.buffer(input.resource), input.offset + start * elementBytes, n * elementBytes);
                downsweep_->bind(cmd, {in, outWords, levels_.level0(g, scratch), vectorsOf(in), vectorsOf(outWords)},
                                 &push, sizeof push);
                downsweep_->dispatchLine(cmd, blocks);
            });
        });
}

} // namespace isoscope
