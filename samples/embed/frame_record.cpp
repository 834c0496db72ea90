#include "frame_record.h"

#include "check.h"

namespace embed {
namespace {

constexpr VkPipelineStageFlags2 kFragmentTests =
    VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT;
constexpr VkPipelineStageFlags2 kCopyOut = VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT;
// The host's clear colour, exactly RGBA8 (20, 20, 26, 255).
constexpr VkClearColorValue kClearColor{{20.0f / 255.0f, 20.0f / 255.0f, 26.0f / 255.0f, 1.0f}};

VkImageMemoryBarrier2 imageBarrier(VkImage image, VkImageAspectFlags aspect, isoscope::api::ImageState from,
                                   isoscope::api::ImageState to)
{
    VkImageMemoryBarrier2 barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
    barrier.srcStageMask = from.stage;
    barrier.srcAccessMask = from.access;
    barrier.dstStageMask = to.stage;
    barrier.dstAccessMask = to.access;
    barrier.oldLayout = from.layout;
    barrier.newLayout = to.layout;
    barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.image = image;
    barrier.subresourceRange = {aspect, 0, 1, 0, 1};
    return barrier;
}

void pipelineBarrier(VkCommandBuffer cmd, std::initializer_list<VkImageMemoryBarrier2> barriers)
{
    VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dependency.imageMemoryBarrierCount = uint32_t(barriers.size());
    dependency.pImageMemoryBarriers = barriers.begin();
    vkCmdPipelineBarrier2(cmd, &dependency);
}

// The states the frame's images pass through, named once for the host's
// barriers and for isoscope's FrameTargets alike.
const isoscope::api::ImageState kColorDrawn{VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                            VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                            VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT};
const isoscope::api::ImageState kColorCopiedOut{VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, kCopyOut,
                                                VK_ACCESS_2_TRANSFER_READ_BIT};
const isoscope::api::ImageState kDepthDrawn{VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, kFragmentTests,
                                            VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT};
const isoscope::api::ImageState kDepthTested{VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, kFragmentTests,
                                             VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                                                 VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT};

void beginTargets(const FrameSlot& slot)
{
    // Both are cleared, so the last frame's contents are dropped (UNDEFINED);
    // the fence wait already ordered this slot's previous frame before us,
    // the barrier orders its copy-out and depth tests before this frame's writes.
    isoscope::api::ImageState colorCopied = kColorCopiedOut;
    colorCopied.layout = VK_IMAGE_LAYOUT_UNDEFINED;
    colorCopied.access = VK_ACCESS_2_NONE; // a read before a write needs no flush
    isoscope::api::ImageState depthTested = kDepthTested;
    depthTested.layout = VK_IMAGE_LAYOUT_UNDEFINED;
    pipelineBarrier(slot.cmd, {imageBarrier(slot.color.image, VK_IMAGE_ASPECT_COLOR_BIT, colorCopied, kColorDrawn),
                               imageBarrier(slot.depth.image, VK_IMAGE_ASPECT_DEPTH_BIT, depthTested, kDepthTested)});
}

void drawHost(const FrameSlot& slot, const FrameCommands& frame)
{
    VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    color.imageView = slot.color.view;
    color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    color.clearValue.color = kClearColor;
    VkRenderingAttachmentInfo depth{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    depth.imageView = slot.depth.view;
    depth.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
    depth.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    depth.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    depth.clearValue.depthStencil = {1.0f, 0};

    VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
    rendering.renderArea = {{0, 0}, frame.extent};
    rendering.layerCount = 1;
    rendering.colorAttachmentCount = 1;
    rendering.pColorAttachments = &color;
    rendering.pDepthAttachment = &depth;
    vkCmdBeginRendering(slot.cmd, &rendering);
    if (frame.host) {
        VkViewport viewport{0.0f, 0.0f, float(frame.extent.width), float(frame.extent.height), 0.0f, 1.0f};
        VkRect2D scissor{{0, 0}, frame.extent};
        vkCmdSetViewport(slot.cmd, 0, 1, &viewport);
        vkCmdSetScissor(slot.cmd, 0, 1, &scissor);
        drawHostScene(slot.cmd, *frame.host, *frame.view);
    }
    vkCmdEndRendering(slot.cmd);
}

} // namespace

void recordFrame(const FrameSlot& slot, const FrameCommands& frame)
{
    beginTargets(slot);
    drawHost(slot, frame);
    if (!frame.renderer) {
        pipelineBarrier(slot.cmd, {imageBarrier(slot.color.image, VK_IMAGE_ASPECT_COLOR_BIT, kColorDrawn, kColorCopiedOut)});
        return;
    }
    isoscope::api::FrameTargets targets;
    targets.color = {slot.color.image, slot.color.view, kColorDrawn, kColorCopiedOut};
    targets.depth = {slot.depth.image, slot.depth.view, kDepthDrawn, kDepthTested};
    require(frame.renderer->record(slot.cmd, frame.frame, targets),
            "isoscope::api::Renderer::record (frame " + std::to_string(frame.frame) + ")");
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

} // namespace embed
