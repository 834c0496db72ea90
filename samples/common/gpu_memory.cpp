#include "gpu_memory.h"

#include "check.h"

namespace samplehost {
namespace {

uint32_t findMemoryType(VkPhysicalDevice physical, uint32_t typeBits, VkMemoryPropertyFlags wanted,
                        VkMemoryPropertyFlags required)
{
    VkPhysicalDeviceMemoryProperties properties;
    vkGetPhysicalDeviceMemoryProperties(physical, &properties);
    for (VkMemoryPropertyFlags flags : {wanted | required, required})
        for (uint32_t i = 0; i < properties.memoryTypeCount; ++i)
            if ((typeBits & (1u << i)) && (properties.memoryTypes[i].propertyFlags & flags) == flags)
                return i;
    throw Failure("no Vulkan memory type has property flags " + std::to_string(required) + " for type bits " +
                  std::to_string(typeBits));
}

VkDeviceMemory allocate(VkPhysicalDevice physical, VkDevice device, const VkMemoryRequirements& requirements,
                        VkMemoryPropertyFlags wanted, VkMemoryPropertyFlags required)
{
    VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    info.allocationSize = requirements.size;
    info.memoryTypeIndex = findMemoryType(physical, requirements.memoryTypeBits, wanted, required);
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VK_CHECK(vkAllocateMemory(device, &info, nullptr, &memory));
    return memory;
}

} // namespace

GpuImage createImage(VkPhysicalDevice physical, VkDevice device, VkFormat format, VkExtent2D extent,
                     VkImageUsageFlags usage, VkImageAspectFlags aspect)
{
    VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = format;
    info.extent = {extent.width, extent.height, 1};
    info.mipLevels = 1;
    info.arrayLayers = 1;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = usage;
    info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;

    GpuImage image;
    VK_CHECK(vkCreateImage(device, &info, nullptr, &image.image));
    VkMemoryRequirements requirements;
    vkGetImageMemoryRequirements(device, image.image, &requirements);
    image.memory = allocate(physical, device, requirements, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0);
    VK_CHECK(vkBindImageMemory(device, image.image, image.memory, 0));

    VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    view.image = image.image;
    view.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view.format = format;
    view.subresourceRange = {aspect, 0, 1, 0, 1};
    VK_CHECK(vkCreateImageView(device, &view, nullptr, &image.view));
    return image;
}

void destroyImage(VkDevice device, GpuImage& image)
{
    vkDestroyImageView(device, image.view, nullptr);
    vkDestroyImage(device, image.image, nullptr);
    vkFreeMemory(device, image.memory, nullptr);
    image = {};
}

GpuBuffer createReadbackBuffer(VkPhysicalDevice physical, VkDevice device, VkDeviceSize size)
{
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = size;
    info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;

    GpuBuffer buffer;
    buffer.size = size;
    VK_CHECK(vkCreateBuffer(device, &info, nullptr, &buffer.buffer));
    VkMemoryRequirements requirements;
    vkGetBufferMemoryRequirements(device, buffer.buffer, &requirements);
    // Coherent, so the mapped bytes need no vkInvalidateMappedMemoryRanges.
    buffer.memory = allocate(physical, device, requirements, VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
                             VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    VK_CHECK(vkBindBufferMemory(device, buffer.buffer, buffer.memory, 0));
    VK_CHECK(vkMapMemory(device, buffer.memory, 0, VK_WHOLE_SIZE, 0, &buffer.mapped));
    return buffer;
}

void destroyBuffer(VkDevice device, GpuBuffer& buffer)
{
    vkDestroyBuffer(device, buffer.buffer, nullptr);
    vkFreeMemory(device, buffer.memory, nullptr); // unmaps implicitly
    buffer = {};
}

} // namespace samplehost
