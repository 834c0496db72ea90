#pragma once
// One viewer frame's commands on a slot: isoscope's passes (which clear the
// targets first), the ImGui overlay over them, then the colour's way out:
// the blit to the swapchain and, for a screenshot, a copy for read-back.
#include <cstdint>

#include <vulkan/vulkan_core.h>

#include <isoscope/renderer.h>

#include "frame_slots.h"
#include "gpu_memory.h"
#include "imgui_layer.h"

namespace viewer {

struct FrameCommands {
    uint64_t frame = 0;                             // the Renderer's frame number
    uint64_t slotFrame = 0;                         // the loop's, whose slot the commands go to
    VkExtent2D extent{};
    isoscope::api::Renderer* renderer = nullptr;   // null: no volume yet, the colour only cleared (windowed)
    ImGuiLayer* imgui = nullptr;                    // null when headless
    VkImage swapchainImage = VK_NULL_HANDLE;        // null when headless
    VkExtent2D swapchainExtent{};
    const samplehost::GpuBuffer* readback = nullptr; // a screenshot of this frame
};

// Records into slot.cmd, begun by the caller.
void recordFrame(const samplehost::FrameSlot& slot, const FrameCommands& frame);

} // namespace viewer
