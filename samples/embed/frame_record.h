#pragma once
// One frame's commands: the host's barriers for its own targets, its scene,
// and isoscope's passes (given the targets' states before and after them);
// the colour's way out is samples/common's frame_output.h.
#include <cstdint>

#include <vulkan/vulkan_core.h>

#include <isoscope/renderer.h>

#include "frame_output.h" // the blit to the swapchain and the read-back, shared with the viewer
#include "frame_slots.h"
#include "host_scene.h"
#include "scene_layout.h"

namespace embed {
using namespace samplehost; // the host code shared with the viewer (samples/common)

struct FrameCommands {
    uint64_t frame = 0;
    VkExtent2D extent{};
    const HostScene* host = nullptr;               // null: the host only clears (--scene isoscope)
    const SceneView* view = nullptr;
    isoscope::api::Renderer* renderer = nullptr;    // null: isoscope is not recorded (--scene host)
};

// Records into slot.cmd (begun by the caller). Afterwards the colour is in
// TRANSFER_SRC_OPTIMAL for the blit or copy, the depth in DEPTH_ATTACHMENT_OPTIMAL.
void recordFrame(const FrameSlot& slot, const FrameCommands& frame);

} // namespace embed
