#pragma once
// The host's own images and buffers, each with a dedicated allocation: a
// sample with a handful of them needs no allocator.
#include <vulkan/vulkan_core.h>

namespace samplehost {

struct GpuImage {
    VkImage image = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
};

struct GpuBuffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    void* mapped = nullptr; // host-visible buffers only
    VkDeviceSize size = 0;
};

GpuImage createImage(VkPhysicalDevice physical, VkDevice device, VkFormat format, VkExtent2D extent,
                     VkImageUsageFlags usage, VkImageAspectFlags aspect);
void destroyImage(VkDevice device, GpuImage& image);

// Host-visible and coherent, mapped for its lifetime: for reading a frame back.
GpuBuffer createReadbackBuffer(VkPhysicalDevice physical, VkDevice device, VkDeviceSize size);
void destroyBuffer(VkDevice device, GpuBuffer& buffer);

} // namespace samplehost
