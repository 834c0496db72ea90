#include "frame_record.h"

#include <string>

#include "check.h"
#include "frame_output.h"
#include "image_barrier.h"

namespace viewer {
namespace {

using samplehost::kCopyOut;
using samplehost::kFragmentTests;

// The slot's last frame copied the colour out and tested depth; isoscope
// clears both, so their contents are dropped (UNDEFINED) and the reads
// before need no flush.
const isoscope::api::ImageState kColorCopiedBefore{VK_IMAGE_LAYOUT_UNDEFINED, kCopyOut, VK_ACCESS_2_NONE};
const isoscope::api::ImageState kDepthTestedBefore{VK_IMAGE_LAYOUT_UNDEFINED, kFragmentTests,
                                                   VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                                                       VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT};
// After isoscope: the overlay pass draws over the colour (its render pass's
// external dependency waits on colour-attachment writes).
const isoscope::api::ImageState kColorOverlaid{VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                               VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                               VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT |
                                                   VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT};

// Nothing to draw yet (the first volume loading): the colour cleared to
// the Renderer's clear colour, left as isoscope leaves it for the overlay.
void recordClear(const samplehost::FrameSlot& slot, VkExtent2D extent)
{
    samplehost::pipelineBarrier(slot.cmd, {samplehost::imageBarrier(slot.color.image, VK_IMAGE_ASPECT_COLOR_BIT,
                                                                    kColorCopiedBefore, kColorOverlaid)});
    VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    color.imageView = slot.color.view;
    color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    isoscope::api::RendererOptions defaults;
    color.clearValue.color = {{defaults.clearColor[0], defaults.clearColor[1], defaults.clearColor[2],
                               defaults.clearColor[3]}};
    VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
    rendering.renderArea = {{0, 0}, extent};
    rendering.layerCount = 1;
    rendering.colorAttachmentCount = 1;
    rendering.pColorAttachments = &color;
    vkCmdBeginRendering(slot.cmd, &rendering);
    vkCmdEndRendering(slot.cmd);
}

} // namespace

void recordFrame(const samplehost::FrameSlot& slot, const FrameCommands& frame)
{
    // Headless there is no overlay: isoscope leaves the colour ready to copy out.
    isoscope::api::FrameTargets targets;
    targets.color = {slot.color.image, slot.color.view, kColorCopiedBefore,
                     frame.imgui ? kColorOverlaid : samplehost::kColorCopiedOut};
    targets.depth = {slot.depth.image, slot.depth.view, kDepthTestedBefore, samplehost::kDepthTested};
    if (frame.renderer)
        samplehost::require(frame.renderer->record(slot.cmd, frame.frame, targets),
                            "isoscope::api::Renderer::record (frame " + std::to_string(frame.frame) + ")");
    else if (frame.imgui)
        recordClear(slot, frame.extent);
    else
        throw samplehost::Failure("a headless frame with nothing to draw (viewer bug)");
    if (frame.imgui)
        frame.imgui->record(slot.cmd, frame.slotFrame); // ends in TRANSFER_SRC_OPTIMAL
    if (frame.readback)
        samplehost::recordReadback(slot.cmd, slot, frame.extent, *frame.readback);
    if (frame.swapchainImage)
        samplehost::recordBlitToSwapchain(slot.cmd, slot, frame.extent, frame.swapchainImage, frame.swapchainExtent);
}

} // namespace viewer
