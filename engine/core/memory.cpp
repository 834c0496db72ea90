#include "core/memory.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "core/device_info.h"
#include "core/fault_injection.h"
#include "core/vk_check.h"

namespace isoscope {

std::string formatBytes(uint64_t bytes)
{
    static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double value = double(bytes);
    int unit = 0;
    while (value >= 1024.0 && unit < 4) {
        value /= 1024.0;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof(text), unit == 0 ? "%.0f %s" : "%.2f %s", value, units[unit]);
    return text;
}

Buffer& Buffer::operator=(Buffer&& other) noexcept
{
    if (this != &other) {
        reset();
        buffer = std::exchange(other.buffer, VK_NULL_HANDLE);
        memory = std::exchange(other.memory, VK_NULL_HANDLE);
        size = std::exchange(other.size, 0);
        allocated = std::exchange(other.allocated, 0);
        mapped = std::exchange(other.mapped, nullptr);
        deviceLocal = std::exchange(other.deviceLocal, false);
        owner = std::exchange(other.owner, nullptr);
    }
    return *this;
}

void Buffer::reset()
{
    if (owner)
        owner->release(*this);
}

Image& Image::operator=(Image&& other) noexcept
{
    if (this != &other) {
        reset();
        image = std::exchange(other.image, VK_NULL_HANDLE);
        view = std::exchange(other.view, VK_NULL_HANDLE);
        memory = std::exchange(other.memory, VK_NULL_HANDLE);
        format = std::exchange(other.format, VK_FORMAT_UNDEFINED);
        extent = std::exchange(other.extent, VkExtent3D{0, 0, 0});
        type = other.type;
        allocated = std::exchange(other.allocated, 0);
        owner = std::exchange(other.owner, nullptr);
    }
    return *this;
}

void Image::reset()
{
    if (owner)
        owner->release(*this);
}

Allocator::Allocator(VkPhysicalDevice physical, VkDevice device, const DeviceInfo& info)
    : physical_(physical), device_(device), info_(info)
{
    vkGetPhysicalDeviceMemoryProperties(physical_, &memory_);
}

uint64_t Allocator::deviceBudgetBytes() const
{
    uint64_t best = 0;
    for (const MemoryHeapInfo& heap : info_.heaps)
        if (heap.deviceLocal)
            best = std::max(best, info_.memoryBudget && heap.budget ? heap.budget : heap.size);
    return best;
}

uint64_t Allocator::availableDeviceBytes() const
{
    uint32_t largest = 0;
    for (uint32_t i = 0; i < memory_.memoryHeapCount; ++i)
        if ((memory_.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) &&
            memory_.memoryHeaps[i].size > memory_.memoryHeaps[largest].size)
            largest = i;
    if (info_.memoryBudget) {
        VkPhysicalDeviceMemoryBudgetPropertiesEXT budget{
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT};
        VkPhysicalDeviceMemoryProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2, &budget};
        vkGetPhysicalDeviceMemoryProperties2(physical_, &properties);
        uint64_t total = budget.heapBudget[largest], used = budget.heapUsage[largest];
        return total > used ? total - used : 0;
    }
    uint64_t size = memory_.memoryHeaps[largest].size, held = currentDevice_;
    return size > held ? size - held : 0;
}

void Allocator::countDeviceBytes(uint64_t bytes)
{
    uint64_t now = currentDevice_ += bytes;
    uint64_t peak = peakDevice_;
    while (now > peak && !peakDevice_.compare_exchange_weak(peak, now)) {
    }
}

VkDeviceMemory Allocator::allocate(const VkMemoryRequirements& requirements, MemoryUsage usage,
                                   const std::string& what, bool& deviceLocal)
{
    VkMemoryPropertyFlags wanted = 0;
    VkMemoryPropertyFlags preferred = 0;
    switch (usage) {
    case MemoryUsage::DeviceLocal: wanted = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT; break;
    case MemoryUsage::Upload:
        wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        break;
    case MemoryUsage::Readback:
        wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        preferred = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
        break;
    }
    uint32_t chosen = UINT32_MAX;
    for (int pass = 0; pass < 2 && chosen == UINT32_MAX; ++pass) {
        VkMemoryPropertyFlags need = pass == 0 ? wanted | preferred : wanted;
        for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i)
            if ((requirements.memoryTypeBits & (1u << i)) && (memory_.memoryTypes[i].propertyFlags & need) == need) {
                chosen = i;
                break;
            }
    }
    if (chosen == UINT32_MAX)
        fail("no Vulkan memory type fits the " + what + " (" + formatBytes(requirements.size) +
             "): the driver offers none with the needed properties");

    uint32_t heapIndex = memory_.memoryTypes[chosen].heapIndex;
    uint64_t heapSize = memory_.memoryHeaps[heapIndex].size;
    if (requirements.size > heapSize)
        fail("the " + what + " needs " + formatBytes(requirements.size) + " but the device's memory heap holds " +
             formatBytes(heapSize) + ": use a smaller volume or a device with more memory");

    VkMemoryAllocateInfo allocateInfo{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    allocateInfo.allocationSize = requirements.size;
    allocateInfo.memoryTypeIndex = chosen;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkResult result = injectedFault(FaultSite::Allocate);
    if (result == VK_SUCCESS)
        result = vkAllocateMemory(device_, &allocateInfo, nullptr, &memory);
    if (result == VK_ERROR_OUT_OF_DEVICE_MEMORY || result == VK_ERROR_OUT_OF_HOST_MEMORY)
        fail("out of memory allocating the " + what + " (" + formatBytes(requirements.size) + "; " +
             formatBytes(currentDevice_) + " already in use on the device, budget " +
             formatBytes(deviceBudgetBytes()) + "): use a smaller volume");
    VK_CHECK(result);

    deviceLocal = (memory_.memoryTypes[chosen].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) != 0;
    if (deviceLocal) {
        countDeviceBytes(requirements.size);
    }
    return memory;
}

namespace {

// One overload per kind of resource, so allocateAndBind serves both.
VkMemoryRequirements memoryRequirements(VkDevice device, const Buffer& buffer)
{
    VkMemoryRequirements requirements;
    vkGetBufferMemoryRequirements(device, buffer.buffer, &requirements);
    return requirements;
}

VkMemoryRequirements memoryRequirements(VkDevice device, const Image& image)
{
    VkMemoryRequirements requirements;
    vkGetImageMemoryRequirements(device, image.image, &requirements);
    return requirements;
}

VkResult bindMemory(VkDevice device, const Buffer& buffer)
{
    return vkBindBufferMemory(device, buffer.buffer, buffer.memory, 0);
}

VkResult bindMemory(VkDevice device, const Image& image)
{
    return vkBindImageMemory(device, image.image, image.memory, 0);
}

} // namespace

template <class Resource>
void Allocator::allocateAndBind(Resource& resource, MemoryUsage usage, const std::string& what, bool& deviceLocal)
{
    resource.owner = this; // from here on, a failed allocation still destroys the handle
    VkMemoryRequirements requirements = memoryRequirements(device_, resource);
    resource.memory = allocate(requirements, usage, what, deviceLocal);
    resource.allocated = requirements.size;
    VK_CHECK(bindMemory(device_, resource));
}

Buffer Allocator::createBuffer(VkDeviceSize size, VkBufferUsageFlags usage, MemoryUsage memoryUsage,
                               const std::string& what)
{
    if (size == 0)
        size = 4; // Vulkan forbids empty buffers; an empty mesh still binds one.
    if (info_.maxBufferSize && size > info_.maxBufferSize)
        fail("the " + what + " needs " + formatBytes(size) + " but the device's largest buffer is " +
             formatBytes(info_.maxBufferSize) + ": use a smaller volume");

    Buffer result;
    VkBufferCreateInfo createInfo{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    createInfo.size = size;
    createInfo.usage = usage;
    createInfo.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VK_CHECK(vkCreateBuffer(device_, &createInfo, nullptr, &result.buffer));
    result.size = size;

    allocateAndBind(result, memoryUsage, what, result.deviceLocal);
    if (memoryUsage != MemoryUsage::DeviceLocal)
        VK_CHECK(vkMapMemory(device_, result.memory, 0, VK_WHOLE_SIZE, 0, &result.mapped));
    return result;
}

Image Allocator::createImage(VkImageType type, VkExtent3D extent, VkFormat format, VkImageUsageFlags usage,
                             const std::string& what, VkImageCreateFlags flags)
{
    Image result;
    VkImageCreateInfo createInfo{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    createInfo.flags = flags;
    createInfo.imageType = type;
    createInfo.format = format;
    createInfo.extent = extent;
    createInfo.mipLevels = 1;
    createInfo.arrayLayers = 1;
    createInfo.samples = VK_SAMPLE_COUNT_1_BIT;
    createInfo.tiling = VK_IMAGE_TILING_OPTIMAL;
    createInfo.usage = usage;
    createInfo.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    createInfo.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    VK_CHECK(vkCreateImage(device_, &createInfo, nullptr, &result.image));
    result.format = format;
    result.extent = extent;
    result.type = type;

    bool deviceLocal = false;
    allocateAndBind(result, MemoryUsage::DeviceLocal, what, deviceLocal);

    bool depth = format == VK_FORMAT_D32_SFLOAT || format == VK_FORMAT_D16_UNORM;
    VkImageViewCreateInfo viewInfo{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    viewInfo.image = result.image;
    viewInfo.viewType = type == VK_IMAGE_TYPE_3D ? VK_IMAGE_VIEW_TYPE_3D : VK_IMAGE_VIEW_TYPE_2D;
    viewInfo.format = format;
    viewInfo.subresourceRange = {VkImageAspectFlags(depth ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT), 0,
                                 1, 0, 1};
    VK_CHECK(vkCreateImageView(device_, &viewInfo, nullptr, &result.view));
    return result;
}

VkDeviceMemory Allocator::allocateShared(const VkMemoryRequirements& requirements, const std::string& what)
{
    bool deviceLocal = false;
    VkDeviceMemory memory = allocate(requirements, MemoryUsage::DeviceLocal, what, deviceLocal);
    if (!deviceLocal) { // allocate() counts device-local bytes only; freeShared always subtracts
        countDeviceBytes(requirements.size);
    }
    return memory;
}

void Allocator::freeShared(VkDeviceMemory memory, VkDeviceSize bytes)
{
    if (!memory)
        return;
    vkFreeMemory(device_, memory, nullptr);
    currentDevice_ -= bytes;
}

void Allocator::release(Buffer& buffer)
{
    if (buffer.mapped)
        vkUnmapMemory(device_, buffer.memory);
    vkDestroyBuffer(device_, buffer.buffer, nullptr);
    vkFreeMemory(device_, buffer.memory, nullptr);
    if (buffer.deviceLocal)
        currentDevice_ -= buffer.allocated;
    buffer.buffer = VK_NULL_HANDLE;
    buffer.memory = VK_NULL_HANDLE;
    buffer.mapped = nullptr;
    buffer.owner = nullptr;
}

void Allocator::release(Image& image)
{
    vkDestroyImageView(device_, image.view, nullptr);
    vkDestroyImage(device_, image.image, nullptr);
    vkFreeMemory(device_, image.memory, nullptr);
    currentDevice_ -= image.allocated;
    image.image = VK_NULL_HANDLE;
    image.view = VK_NULL_HANDLE;
    image.memory = VK_NULL_HANDLE;
    image.owner = nullptr;
}

} // namespace isoscope
