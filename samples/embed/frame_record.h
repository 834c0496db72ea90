#pragma once
// One frame's commands: the host's barriers for its own targets, its scene,
// isoscope's passes (given the targets' states before and after them), and
// the colour's way out (a blit to the swapchain or a copy for read-back).
#include <cstdint>

#include <vulkan/vulkan_core.h>

#include <isoscope/renderer.h>

#include "frame_slots.h"
#include "gpu_memory.h"
#include "host_scene.h"
#include "scene_layout.h"

namespace embed {

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

// The swapchain image goes from acquired (UNDEFINED) to PRESENT_SRC; the
// submission waits for the acquire at the blit stage.
void recordBlitToSwapchain(VkCommandBuffer cmd, const FrameSlot& slot, VkExtent2D extent, VkImage swapchainImage,
                           VkExtent2D swapchainExtent);

// The colour's bytes into `buffer` (width × height × 4, tightly packed), visible to the host after the fence.
void recordReadback(VkCommandBuffer cmd, const FrameSlot& slot, VkExtent2D extent, const GpuBuffer& buffer);

} // namespace embed
