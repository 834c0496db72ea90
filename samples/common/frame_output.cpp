#include "frame_output.h"

#include "check.h"
#include "image_barrier.h"

namespace samplehost {

void beginSlot(VkDevice device, const FrameSlot& slot)
{
    VK_CHECK(vkResetCommandPool(device, slot.pool, 0));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VK_CHECK(vkBeginCommandBuffer(slot.cmd, &begin));
}

void submitSlot(VkDevice device, VkQueue queue, const FrameSlot& slot, VkSemaphore wait, VkSemaphore signal)
{
    VK_CHECK(vkEndCommandBuffer(slot.cmd));

    VkCommandBufferSubmitInfo command{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
    command.commandBuffer = slot.cmd;
    VkSemaphoreSubmitInfo waitInfo{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    waitInfo.semaphore = wait;
    waitInfo.stageMask = VK_PIPELINE_STAGE_2_BLIT_BIT;
    VkSemaphoreSubmitInfo signalInfo{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    signalInfo.semaphore = signal;
    signalInfo.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    submit.waitSemaphoreInfoCount = wait ? 1 : 0;
    submit.pWaitSemaphoreInfos = &waitInfo;
    submit.commandBufferInfoCount = 1;
    submit.pCommandBufferInfos = &command;
    submit.signalSemaphoreInfoCount = signal ? 1 : 0;
    submit.pSignalSemaphoreInfos = &signalInfo;
    VK_CHECK(vkResetFences(device, 1, &slot.done));
    VK_CHECK(vkQueueSubmit2(queue, 1, &submit, slot.done));
}

VkResult presentImage(VkQueue queue, const Window& window, uint32_t imageIndex, VkSemaphore renderDone)
{
    VkPresentInfoKHR present{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
    present.waitSemaphoreCount = 1;
    present.pWaitSemaphores = &renderDone;
    present.swapchainCount = 1;
    present.pSwapchains = &window.swapchain;
    present.pImageIndices = &imageIndex;
    return vkQueuePresentKHR(queue, &present);
}

void recordBlitToSwapchain(VkCommandBuffer cmd, const FrameSlot& slot, VkExtent2D extent, VkImage swapchainImage,
                           VkExtent2D swapchainExtent)
{
    // Acquired: the semaphore wait at the blit stage is what the transition follows.
    isoscope::api::ImageState acquired{VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_BLIT_BIT, VK_ACCESS_2_NONE};
    isoscope::api::ImageState written{VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_BLIT_BIT,
                                      VK_ACCESS_2_TRANSFER_WRITE_BIT};
    // Presentation waits on the submission's semaphore, which follows every stage.
    isoscope::api::ImageState presented{VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE};
    pipelineBarrier(cmd, {imageBarrier(swapchainImage, VK_IMAGE_ASPECT_COLOR_BIT, acquired, written)});

    VkImageBlit region{};
    region.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.srcOffsets[1] = {int32_t(extent.width), int32_t(extent.height), 1};
    region.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.dstOffsets[1] = {int32_t(swapchainExtent.width), int32_t(swapchainExtent.height), 1};
    vkCmdBlitImage(cmd, slot.color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, swapchainImage,
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region, VK_FILTER_NEAREST);

    pipelineBarrier(cmd, {imageBarrier(swapchainImage, VK_IMAGE_ASPECT_COLOR_BIT, written, presented)});
}

void recordReadback(VkCommandBuffer cmd, const FrameSlot& slot, VkExtent2D extent, const GpuBuffer& buffer)
{
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {extent.width, extent.height, 1};
    vkCmdCopyImageToBuffer(cmd, slot.color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer.buffer, 1, &region);

    VkBufferMemoryBarrier2 toHost{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2};
    toHost.srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
    toHost.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
    toHost.dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT;
    toHost.dstAccessMask = VK_ACCESS_2_HOST_READ_BIT;
    toHost.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    toHost.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    toHost.buffer = buffer.buffer;
    toHost.size = VK_WHOLE_SIZE;
    VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dependency.bufferMemoryBarrierCount = 1;
    dependency.pBufferMemoryBarriers = &toHost;
    vkCmdPipelineBarrier2(cmd, &dependency);
}

} // namespace samplehost
