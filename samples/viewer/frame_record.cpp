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

} // namespace

void recordFrame(const samplehost::FrameSlot& slot, const FrameCommands& frame)
{
    // Headless there is no overlay: isoscope leaves the colour ready to copy out.
    isoscope::api::FrameTargets targets;
    targets.color = {slot.color.image, slot.color.view, kColorCopiedBefore,
                     frame.imgui ? kColorOverlaid : samplehost::kColorCopiedOut};
    targets.depth = {slot.depth.image, slot.depth.view, kDepthTestedBefore, samplehost::kDepthTested};
    samplehost::require(frame.renderer->record(slot.cmd, frame.frame, targets),
                        "isoscope::api::Renderer::record (frame " + std::to_string(frame.frame) + ")");
    if (frame.imgui)
        frame.imgui->record(slot.cmd, frame.frame); // ends in TRANSFER_SRC_OPTIMAL
    if (frame.readback)
        samplehost::recordReadback(slot.cmd, slot, frame.extent, *frame.readback);
    if (frame.swapchainImage)
        samplehost::recordBlitToSwapchain(slot.cmd, slot, frame.extent, frame.swapchainImage, frame.swapchainExtent);
}

} // namespace viewer
