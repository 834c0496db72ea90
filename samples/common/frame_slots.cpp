#include "frame_slots.h"

#include <cstdint>

#include "check.h"

namespace samplehost {
namespace {

void createTargets(VkPhysicalDevice physical, VkDevice device, VkExtent2D extent, FrameSlot& slot)
{
    slot.color = createImage(physical, device, kColorFormat, extent,
                             VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_STORAGE_BIT |
                                 VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                             VK_IMAGE_ASPECT_COLOR_BIT);
    slot.depth = createImage(physical, device, kDepthFormat, extent,
                             VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                             VK_IMAGE_ASPECT_DEPTH_BIT);
}

} // namespace

FrameSlots::~FrameSlots()
{
    if (!device)
        return;
    vkDeviceWaitIdle(device); // best effort while unwinding; a lost device has nothing left to wait for
    for (FrameSlot& slot : slots) {
        destroyImage(device, slot.color);
        destroyImage(device, slot.depth);
        vkDestroySemaphore(device, slot.imageAcquired, nullptr);
        vkDestroyFence(device, slot.done, nullptr);
        vkDestroyCommandPool(device, slot.pool, nullptr);
    }
}

void FrameSlots::resize(VkExtent2D newExtent)
{
    extent = newExtent;
    for (FrameSlot& slot : slots) {
        destroyImage(device, slot.color);
        destroyImage(device, slot.depth);
        createTargets(physical, device, extent, slot);
    }
}

void FrameSlots::waitForSlot(uint64_t frame)
{
    FrameSlot& slot = (*this)[frame];
    VK_CHECK(vkWaitForFences(device, 1, &slot.done, VK_TRUE, UINT64_MAX));
}

std::unique_ptr<FrameSlots> createFrameSlots(VkPhysicalDevice physical, VkDevice device, uint32_t family,
                                             uint32_t count, VkExtent2D extent, bool windowed)
{
    auto frames = std::make_unique<FrameSlots>();
    frames->physical = physical;
    frames->device = device;
    frames->extent = extent;
    frames->slots.resize(count);
    for (FrameSlot& slot : frames->slots) {
        VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        pool.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT; // reset whole each frame
        pool.queueFamilyIndex = family;
        VK_CHECK(vkCreateCommandPool(device, &pool, nullptr, &slot.pool));

        VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        allocate.commandPool = slot.pool;
        allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        allocate.commandBufferCount = 1;
        VK_CHECK(vkAllocateCommandBuffers(device, &allocate, &slot.cmd));

        VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        fence.flags = VK_FENCE_CREATE_SIGNALED_BIT;
        VK_CHECK(vkCreateFence(device, &fence, nullptr, &slot.done));

        if (windowed) {
            VkSemaphoreCreateInfo semaphore{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
            VK_CHECK(vkCreateSemaphore(device, &semaphore, nullptr, &slot.imageAcquired));
        }
        createTargets(physical, device, extent, slot);
    }
    return frames;
}

} // namespace samplehost
