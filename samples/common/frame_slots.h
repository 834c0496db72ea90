#pragma once
// One slot per frame in flight: a command buffer, the fence its submission
// signals, the semaphore a swapchain image is acquired with, and the host's
// own offscreen colour and depth targets. Frame n uses slot n % count, and
// waits on the slot's fence first, so frame n - count has finished with
// everything in it (isoscope's renderer.h contract).
#include <memory>
#include <vector>

#include <vulkan/vulkan_core.h>

#include "gpu_memory.h"

namespace samplehost {

// Colour: isoscope's rays write it as a storage image; it is blitted or
// copied out. Depth: isoscope's rays sample it to stop at what was drawn.
constexpr VkFormat kColorFormat = VK_FORMAT_R8G8B8A8_UNORM;
constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;

struct FrameSlot {
    VkCommandPool pool = VK_NULL_HANDLE;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkFence done = VK_NULL_HANDLE;              // created signalled: the first wait returns at once
    VkSemaphore imageAcquired = VK_NULL_HANDLE; // windowed only
    GpuImage color;
    GpuImage depth;
};

struct FrameSlots {
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkExtent2D extent{};
    std::vector<FrameSlot> slots;

    FrameSlots() = default;
    FrameSlots(const FrameSlots&) = delete;
    FrameSlots& operator=(const FrameSlots&) = delete;
    ~FrameSlots(); // waits for the device first

    FrameSlot& operator[](uint64_t frame) { return slots[frame % slots.size()]; }
    // Makes the targets again at a new size; the caller has waited for the device.
    void resize(VkExtent2D newExtent);
    // Blocks until the slot's last submission finished. The fence is reset
    // just before the next submit, so a frame given up (a stale swapchain)
    // leaves it signalled.
    void waitForSlot(uint64_t frame);
};

std::unique_ptr<FrameSlots> createFrameSlots(VkPhysicalDevice physical, VkDevice device, uint32_t family,
                                             uint32_t count, VkExtent2D extent, bool windowed);

} // namespace samplehost
