#include "frame_record.h"

#include "check.h"
#include "image_barrier.h"

namespace embed {
using namespace samplehost; // the host code shared with the viewer (samples/common)
namespace {

// The host's clear colour, exactly RGBA8 (20, 20, 26, 255).
constexpr VkClearColorValue kClearColor{{20.0f / 255.0f, 20.0f / 255.0f, 26.0f / 255.0f, 1.0f}};

// The states the frame's images pass through, named once for the host's
// barriers and for isoscope's FrameTargets alike.
const isoscope::api::ImageState kColorDrawn{VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                            VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                            VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT};
const isoscope::api::ImageState kDepthDrawn{VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, kFragmentTests,
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

} // namespace embed
