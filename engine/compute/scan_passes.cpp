#include "compute/scan_passes.h"

#include <algorithm>

#include "core/barrier.h"
#include "core/context.h"
#include "core/error.h"

namespace isoscope {

namespace {

// Eight elements per invocation amortize the workgroup scan's barriers;
// larger tiles only lengthen pass 2's walk over fewer blocks.
constexpr uint32_t kItemsPerInvocation = 8;
constexpr uint32_t kPreferredWorkgroupSize = 256;

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

SpecValues specValues(uint32_t workgroupSize, uint32_t components, bool select)
{
    return {{"WORKGROUP_SIZE", workgroupSize},
            {"ITEMS", kItemsPerInvocation},
            {"COMPONENTS", components},
            {"SELECT", select ? 1u : 0u}};
}

uint64_t blockCountFor(const ScanLayout& layout, uint64_t count)
{
    return (count + layout.tileElements - 1) / layout.tileElements;
}

} // namespace

ScanLayout scanLayout(const Context& context, uint32_t components, const ScanOptions& options)
{
    const DeviceInfo& info = context.info();
    ScanLayout layout;
    layout.workgroupSize = workgroupSizeFor(info, kPreferredWorkgroupSize);
    layout.items = kItemsPerInvocation;
    layout.tileElements = layout.workgroupSize * layout.items;
    layout.topWorkgroupSize = workgroupSizeFor(info, 1024);
    uint64_t bindingBytes = options.maxBindingBytes ? std::min<uint64_t>(options.maxBindingBytes, info.maxStorageBufferRange)
                                                    : info.maxStorageBufferRange;
    // Element indices inside a segment are 32-bit in the shaders.
    uint64_t elements = std::min<uint64_t>(bindingBytes / (4ull * components), uint64_t(1) << 31);
    layout.segmentElements = std::max<uint64_t>(1, elements / layout.tileElements) * layout.tileElements;
    return layout;
}

uint64_t ScanPasses::scratchBytesFor(const Context& context, uint32_t components, bool select, uint64_t maxCount)
{
    ScanLayout layout = scanLayout(context, components, {});
    uint64_t sumComponents = select ? 1 : components;
    uint64_t blocks = std::max<uint64_t>(1, blockCountFor(layout, maxCount));
    return blocks * sumComponents * 8 + 16;
}

ScanPasses::ScanPasses(Context& context, uint32_t components, bool select, bool downsweep, uint64_t maxCount,
                       const ScanOptions& options, const std::string& what)
    : context_(context), components_(components), select_(select), maxCount_(maxCount), what_(what),
      layout_(scanLayout(context, components, options)),
      reduce_(context, loadShader("compute/scan_reduce"), specValues(layout_.workgroupSize, components, select)),
      scanBlocks_(context, loadShader("compute/scan_blocks"), specValues(layout_.topWorkgroupSize, components, select))
{
    if (components != 1 && components != 2)
        fail(what + ": elements of " + std::to_string(components) + " components; the scan takes 1 or 2");
    if (downsweep)
        downsweep_ = std::make_unique<ComputeProgram>(context, loadShader("compute/scan_downsweep"),
                                                      specValues(layout_.workgroupSize, components, select));
    uint64_t blocks = std::max<uint64_t>(1, blockCountFor(layout_, maxCount));
    if (blocks > UINT32_MAX)
        fail(what + " of " + std::to_string(maxCount) + " elements needs " + std::to_string(blocks) +
             " blocks, more than 2^32: split the input");
    uint64_t blockBytes = blocks * sumComponents() * 8;
    if (blockBytes > context.info().maxStorageBufferRange)
        fail(what + " of " + std::to_string(maxCount) + " elements needs " + formatBytes(blockBytes) +
             " of block sums in one binding; " + context.info().name + " binds at most " +
             formatBytes(context.info().maxStorageBufferRange) + ": split the input");
    blockSums_ = context.allocator().createBuffer(blockBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                                  MemoryUsage::DeviceLocal, what + " block sums");
    totals_ = context.allocator().createBuffer(16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                               MemoryUsage::DeviceLocal, what + " totals");
}

void ScanPasses::checkCount(uint64_t count) const
{
    if (count > maxCount_)
        fail(what_ + " of " + std::to_string(count) + " elements, but it was made for at most " +
             std::to_string(maxCount_) + " (engine bug: make it for the longest input)");
}

void ScanPasses::dispatchBlocks(VkCommandBuffer cmd, const ComputeProgram& program, uint32_t blocks) const
{
    uint32_t maxX = std::min<uint32_t>(65535, context_.info().maxComputeWorkGroupCount[0]);
    uint32_t x = std::min(blocks, maxX);
    program.dispatch(cmd, x, (blocks + x - 1) / x);
}

void ScanPasses::recordBlockOffsets(VkCommandBuffer cmd, BufferSpan input, uint64_t count, BufferSpan totals) const
{
    checkCount(count);
    const uint64_t elementBytes = 4ull * components_;
    uint32_t firstBlock = 0;
    for (uint64_t start = 0; start < count; start += layout_.segmentElements) {
        uint64_t n = std::min(layout_.segmentElements, count - start);
        uint32_t blocks = uint32_t(blockCountFor(layout_, n));
        struct {
            uint32_t count, firstBlock, blockCount;
        } push{uint32_t(n), firstBlock, blocks};
        reduce_.bind(cmd, {{input.buffer, input.offset + start * elementBytes, n * elementBytes}, {blockSums_.buffer}},
                     &push, sizeof push);
        dispatchBlocks(cmd, reduce_, blocks);
        firstBlock += blocks;
    }
    computeToComputeBarrier(cmd);
    if (!totals.buffer)
        totals = {totals_.buffer, 0};
    uint32_t blockCount = firstBlock;
    scanBlocks_.bind(cmd, {{blockSums_.buffer}, {totals.buffer, totals.offset, 8ull * sumComponents()}}, &blockCount,
                     sizeof blockCount);
    scanBlocks_.dispatch(cmd, 1);
    computeToComputeBarrier(cmd);
}

void ScanPasses::recordDownsweep(VkCommandBuffer cmd, BufferSpan input, BufferSpan output, uint64_t count,
                                 uint64_t outputWords) const
{
    checkCount(count);
    const uint64_t elementBytes = 4ull * components_;
    uint32_t firstBlock = 0;
    for (uint64_t start = 0; start < count; start += layout_.segmentElements) {
        uint64_t n = std::min(layout_.segmentElements, count - start);
        uint32_t blocks = uint32_t(blockCountFor(layout_, n));
        struct {
            uint32_t count, firstBlock, blockCount, firstIndex;
        } push{uint32_t(n), firstBlock, blocks, uint32_t(start)};
        // A scan writes the segment's own range; a compaction writes indices
        // anywhere below the selected count, so it binds the whole list.
        DescriptorInfo out = select_ ? DescriptorInfo(output.buffer, output.offset, std::max<uint64_t>(4, outputWords * 4))
                                     : DescriptorInfo(output.buffer, output.offset + start * elementBytes, n * elementBytes);
        downsweep_->bind(cmd, {{input.buffer, input.offset + start * elementBytes, n * elementBytes}, out,
                               {blockSums_.buffer}},
                         &push, sizeof push);
        dispatchBlocks(cmd, *downsweep_, blocks);
        firstBlock += blocks;
    }
    computeOutputBarrier(cmd);
}

void computeToComputeBarrier(VkCommandBuffer cmd)
{
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                  VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
}

void computeOutputBarrier(VkCommandBuffer cmd)
{
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT,
                  VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT |
                      VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT);
}

} // namespace isoscope
