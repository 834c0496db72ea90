#include "compute/block_sum_scan.h"

#include <algorithm>

#include "compute/scan_passes.h"
#include "core/context.h"
#include "core/error.h"

namespace isoscope {

namespace {

constexpr uint64_t kLevelAlignment = 256; // >= every device's minStorageBufferOffsetAlignment

uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

uint64_t alignUp(uint64_t bytes, uint64_t alignment) { return ceilDiv(bytes, alignment) * alignment; }

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
    : context_(context), components_(components), span_(layout.span), maxBlocks_(maxBlocks), what_(what),
      reduceBlocks_(context, loadShader("compute/scan_blocks_reduce"), blockSpecValues(layout, components)),
      scanBlocks_(context, loadShader("compute/scan_blocks"), blockSpecValues(layout, components))
{
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
    blockSums_ = context.allocator().createBuffer(offset, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage::DeviceLocal,
                                                  what + " block sums");
}

DescriptorInfo BlockSumScan::level(size_t k) const
{
    return DescriptorInfo(blockSums_.buffer, levelOffsets_[k], levelBytes_[k]);
}

void BlockSumScan::dispatchBlocks(VkCommandBuffer cmd, const ComputeProgram& program, uint64_t blocks) const
{
    uint32_t maxX = std::min<uint32_t>(65535, context_.info().maxComputeWorkGroupCount[0]);
    uint32_t x = uint32_t(std::min<uint64_t>(std::max<uint64_t>(blocks, 1), maxX));
    program.dispatch(cmd, x, uint32_t(ceilDiv(std::max<uint64_t>(blocks, 1), x)));
}

void BlockSumScan::record(VkCommandBuffer cmd, uint64_t blocks, BufferSpan totals) const
{
    if (blocks > maxBlocks_)
        fail(what_ + " of " + std::to_string(blocks) + " blocks, but it was made for at most " +
             std::to_string(maxBlocks_) + " (engine bug: make it for the longest input)");
    const std::vector<uint64_t> levels = levelBlocks(span_, blocks);
    const size_t top = levels.size() - 1;
    struct {
        uint32_t blockCount, span;
    } reducePush{};
    for (size_t k = 0; k < top; ++k) {
        reducePush = {uint32_t(levels[k]), span_};
        reduceBlocks_.bind(cmd, {level(k), level(k + 1)}, &reducePush, sizeof reducePush);
        dispatchBlocks(cmd, reduceBlocks_, levels[k + 1]);
        computeToComputeBarrier(cmd);
    }
    struct {
        uint32_t blockCount, span, top;
    } scanPush{uint32_t(levels[top]), span_, 1};
    DescriptorInfo totalsBinding(totals.buffer, totals.offset, 8ull * components_);
    // The top level reads no level above; its own range stands in for one.
    scanBlocks_.bind(cmd, {level(top), level(top), totalsBinding}, &scanPush, sizeof scanPush);
    scanBlocks_.dispatch(cmd, 1);
    computeToComputeBarrier(cmd);
    for (size_t k = top; k-- > 0;) {
        scanPush = {uint32_t(levels[k]), span_, 0};
        scanBlocks_.bind(cmd, {level(k), level(k + 1), totalsBinding}, &scanPush, sizeof scanPush);
        dispatchBlocks(cmd, scanBlocks_, levels[k + 1]);
        computeToComputeBarrier(cmd);
    }
}

} // namespace isoscope
