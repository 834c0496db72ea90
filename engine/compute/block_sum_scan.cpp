#include "compute/block_sum_scan.h"

#include <algorithm>

#include "compute/scan_passes.h"
#include "compute/scan_push.h"
#include "core/context.h"
#include "core/error.h"
#include "graph/render_graph.h"

namespace isoscope {

namespace {

constexpr uint64_t kLevelAlignment = 256; // >= every device's minStorageBufferOffsetAlignment



SpecValues blockSpecValues(const ScanLayout& layout, uint32_t components)
{
    return {{"WORKGROUP_SIZE", layout.blockWorkgroupSize},
            {"ITEMS", layout.blockItems},
            {"COMPONENTS", components},
            {"SELECT", 0u}};
}

} // namespace

std::vector<uint64_t> BlockSumScan::levelBlocks(uint32_t span, uint64_t blocks)
{
    std::vector<uint64_t> levels{blocks};
    while (levels.back() > span)
        levels.push_back(ceilDiv(levels.back(), span));
    return levels;
}

uint64_t BlockSumScan::scratchBytesFor(uint32_t span, uint32_t components, uint64_t maxBlocks)
{
    uint64_t bytes = 0;
    for (uint64_t blocks : levelBlocks(span, maxBlocks))
        bytes += alignUp(std::max<uint64_t>(blocks, 1) * components * 8, kLevelAlignment);
    return bytes;
}

BlockSumScan::BlockSumScan(Context& context, const ScanLayout& layout, uint32_t components, uint64_t maxBlocks,
                           const std::string& what)
    : components_(components), span_(layout.span), maxBlocks_(maxBlocks), what_(what),
      reduceBlocks_(context, loadShader("compute/scan_blocks_reduce"), blockSpecValues(layout, components)),
      scanBlocks_(context, loadShader("compute/scan_blocks"), blockSpecValues(layout, components))
{
    checkPushLayout(reduceBlocks_.name(), reduceBlocks_.pushMembers(), blocksReducePushMembers());
    checkPushLayout(scanBlocks_.name(), scanBlocks_.pushMembers(), blocksScanPushMembers());
    if (components < 1 || components > 3)
        fail(what + ": block sums of " + std::to_string(components) + " components; the block scan takes 1 to 3");
    if (maxBlocks > UINT32_MAX)
        fail(what + " needs " + std::to_string(maxBlocks) + " blocks, more than 2^32: split the input");
    uint64_t offset = 0;
    for (uint64_t blocks : levelBlocks(span_, maxBlocks)) {
        uint64_t bytes = std::max<uint64_t>(blocks, 1) * components * 8;
        if (bytes > context.info().maxStorageBufferRange)
            fail(what + " needs " + formatBytes(bytes) + " of block sums in one binding; " + context.info().name +
                 " binds at most " + formatBytes(context.info().maxStorageBufferRange) + ": split the input");
        levelOffsets_.push_back(offset);
        levelBytes_.push_back(bytes);
        offset += alignUp(bytes, kLevelAlignment);
    }
    scratchBytes_ = offset;
}

DescriptorInfo BlockSumScan::level(const RenderGraph& graph, ResourceId scratch, size_t k) const
{
    return DescriptorInfo(graph.buffer(scratch), levelOffsets_[k], levelBytes_[k]);
}

void BlockSumScan::addPasses(RenderGraph& graph, const std::string& name, ResourceId scratch, uint64_t blocks,
                             GraphSpan totals) const
{
    if (blocks > maxBlocks_)
        fail(what_ + " of " + std::to_string(blocks) + " blocks, but it was made for at most " +
             std::to_string(maxBlocks_) + " (engine bug: make it for the longest input)");
    const std::vector<uint64_t> levels = levelBlocks(span_, blocks);
    const size_t top = levels.size() - 1;
    const uint32_t span = span_;
    // Each level reads what the one below (reducing) or above (scanning) wrote.
    for (size_t k = 0; k < top; ++k) {
        graph.addComputePass(name, reduceBlocks_, {{scratch, Use::StorageWrite, 0}, {scratch, Use::StorageWrite, 1}},
                             [this, scratch, k, span, levels](VkCommandBuffer cmd, const RenderGraph& g) {
                                 BlocksReducePush push{uint32_t(levels[k]), span};
                                 reduceBlocks_.bind(cmd, {level(g, scratch, k), level(g, scratch, k + 1)}, &push,
                                                    sizeof push);
                                 reduceBlocks_.dispatchLine(cmd, std::max<uint64_t>(levels[k + 1], 1));
                             });
    }
    std::vector<ResourceUse> uses = {{scratch, Use::StorageWrite, 0}, {scratch, Use::StorageWrite, 1},
                                     {totals.resource, Use::StorageWrite, 2}};
    const uint64_t totalBytes = 8ull * components_;
    for (size_t k = top + 1; k-- > 0;) {
        graph.addComputePass(
            name, scanBlocks_, uses, [this, scratch, k, top, span, levels, totals, totalBytes](VkCommandBuffer cmd,
                                                                                               const RenderGraph& g) {
                BlocksScanPush push{uint32_t(levels[k]), span, k == top ? 1u : 0u};
                DescriptorInfo totalsBinding(g.buffer(totals.resource), totals.offset, totalBytes);
                // The top level reads no level above; its own range stands in for one.
                DescriptorInfo above = level(g, scratch, k == top ? k : k + 1);
                scanBlocks_.bind(cmd, {level(g, scratch, k), above, totalsBinding}, &push, sizeof push);
                if (k == top)
                    scanBlocks_.dispatch(cmd, 1);
                else
                    scanBlocks_.dispatchLine(cmd, std::max<uint64_t>(levels[k + 1], 1));
            });
    }
}

} // namespace isoscope
