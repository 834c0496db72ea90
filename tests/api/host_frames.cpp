#include "host_frames.h"

#include <cstring>

#include "check.h"

namespace api_test {

namespace {

using isoscope::api::ImageState;

constexpr VkPipelineStageFlags2 kFragmentTests =
    VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT;
// The Renderer clears both targets, so they start UNDEFINED; the fence wait
// ordered the slot's previous frame (its copy out, its depth tests) before.
constexpr ImageState kColorBefore{VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_NONE};
constexpr ImageState kColorCopiedOut{VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT,
                                     VK_ACCESS_2_TRANSFER_READ_BIT};
constexpr ImageState kDepthBefore{VK_IMAGE_LAYOUT_UNDEFINED, kFragmentTests, VK_ACCESS_2_NONE};
constexpr ImageState kDepthAfter{VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, kFragmentTests,
                                 VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                                     VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT};

} // namespace

HostFrames::HostFrames(isoscope::api::Context& context, uint32_t framesInFlight, VkExtent2D extent)
    : context_(context), extent_(extent)
{
    slots_ = samplehost::createFrameSlots(context.physicalDevice(), context.device(), context.queueFamily(),
                                     framesInFlight, extent, false);
    for (uint32_t i = 0; i < framesInFlight; ++i)
        readbacks_.push_back(samplehost::createReadbackBuffer(context.physicalDevice(), context.device(),
                                                         VkDeviceSize(extent.width) * extent.height * 4));
}

HostFrames::~HostFrames()
{
    vkDeviceWaitIdle(context_.device());
    for (samplehost::GpuBuffer& buffer : readbacks_)
        samplehost::destroyBuffer(context_.device(), buffer);
}

void HostFrames::submit(isoscope::api::Renderer& renderer, uint64_t frame)
{
    slots_->waitForSlot(frame);
    samplehost::FrameSlot& slot = (*slots_)[frame];
    VK_CHECK(vkResetCommandPool(context_.device(), slot.pool, 0));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VK_CHECK(vkBeginCommandBuffer(slot.cmd, &begin));
    isoscope::api::FrameTargets targets{{slot.color.image, slot.color.view, kColorBefore, kColorCopiedOut},
                                        {slot.depth.image, slot.depth.view, kDepthBefore, kDepthAfter}};
    samplehost::require(renderer.record(slot.cmd, frame, targets), "Renderer::record");
    VkBufferImageCopy copy{};
    copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    copy.imageExtent = {extent_.width, extent_.height, 1};
    const samplehost::GpuBuffer& readback = readbacks_[frame % readbacks_.size()];
    vkCmdCopyImageToBuffer(slot.cmd, slot.color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buffer, 1,
                           &copy);
    VkMemoryBarrier2 toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
    toHost.srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
    toHost.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
    toHost.dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT;
    toHost.dstAccessMask = VK_ACCESS_2_HOST_READ_BIT;
    VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dependency.memoryBarrierCount = 1;
    dependency.pMemoryBarriers = &toHost;
    vkCmdPipelineBarrier2(slot.cmd, &dependency);
    VK_CHECK(vkEndCommandBuffer(slot.cmd));

    VK_CHECK(vkResetFences(context_.device(), 1, &slot.done));
    VkCommandBufferSubmitInfo command{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
    command.commandBuffer = slot.cmd;
    VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    submit.commandBufferInfoCount = 1;
    submit.pCommandBufferInfos = &command;
    VK_CHECK(vkQueueSubmit2(context_.queue(), 1, &submit, slot.done));
}

std::vector<uint8_t> HostFrames::colour(uint64_t frame)
{
    slots_->waitForSlot(frame);
    const samplehost::GpuBuffer& readback = readbacks_[frame % readbacks_.size()];
    std::vector<uint8_t> pixels(size_t(extent_.width) * extent_.height * 4);
    std::memcpy(pixels.data(), readback.mapped, pixels.size());
    return pixels;
}

} // namespace api_test
