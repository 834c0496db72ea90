#pragma once
// A frame's colour on its way out of a slot: blitted to the swapchain image
// (windowed) or copied into a host-visible buffer (a screenshot), and the
// slot's command buffer begun, submitted and presented.
#include <vulkan/vulkan_core.h>

#include "frame_slots.h"
#include "gpu_memory.h"
#include "window.h"

namespace samplehost {

// The slot's command pool reset and its command buffer begun (its fence waited for).
void beginSlot(VkDevice device, const FrameSlot& slot);
// Ends the command buffer and submits it, signalling the slot's fence; `wait`
// (at the blit) and `signal` are the swapchain's semaphores, none when headless.
void submitSlot(VkDevice device, VkQueue queue, const FrameSlot& slot, VkSemaphore wait, VkSemaphore signal);
// Presents the image after `renderDone`; returns the VkResult (out of date and
// suboptimal are the caller's to handle with a resize).
VkResult presentImage(VkQueue queue, const Window& window, uint32_t imageIndex, VkSemaphore renderDone);

// The slot's colour (in TRANSFER_SRC_OPTIMAL) into the swapchain image, which goes
// from acquired (UNDEFINED) to PRESENT_SRC; the submission waits for the acquire at the blit stage.
void recordBlitToSwapchain(VkCommandBuffer cmd, const FrameSlot& slot, VkExtent2D extent, VkImage swapchainImage,
                           VkExtent2D swapchainExtent);

// The colour's bytes (in TRANSFER_SRC_OPTIMAL) into `buffer` (width × height × 4,
// tightly packed), visible to the host after the fence.
void recordReadback(VkCommandBuffer cmd, const FrameSlot& slot, VkExtent2D extent, const GpuBuffer& buffer);

} // namespace samplehost
