#include "core/host_import.h"

#include <sys/mman.h>

#include <algorithm>
#include <utility>

#include "core/context.h"
#include "core/device_features.h"
#include "core/error.h"
#include "core/parallel_for.h"
#include "core/vk_check.h"

namespace isoscope {

HostPages& HostPages::operator=(HostPages&& other) noexcept
{
    if (this != &other) {
        reset();
        data = std::exchange(other.data, nullptr);
        mapping = std::exchange(other.mapping, nullptr);
        mappingBytes = std::exchange(other.mappingBytes, 0);
    }
    return *this;
}

void HostPages::reset()
{
    if (mapping)
        munmap(mapping, mappingBytes);
    data = nullptr;
    mapping = nullptr;
    mappingBytes = 0;
}

namespace {

constexpr VkExternalMemoryHandleTypeFlagBits kHostAllocation = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
constexpr VkMemoryPropertyFlags kCoherent = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;

uint64_t importAlignment(VkPhysicalDevice physical)
{
    VkPhysicalDeviceExternalMemoryHostPropertiesEXT host{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT};
    VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &host};
    vkGetPhysicalDeviceProperties2(physical, &properties);
    // 2 MiB at least: the middle of the mapping in huge pages.
    return std::max<uint64_t>(host.minImportedHostPointerAlignment, uint64_t(2) << 20);
}

} // namespace

bool canImportHostMemory(const Context& context, VkBufferUsageFlags usage)
{
    VkPhysicalDevice physical = context.physicalDevice();
    // The loaded entry point too: a host's device may have left the extension out.
    if (!hasDeviceExtension(physical, VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME) || !vkGetMemoryHostPointerPropertiesEXT)
        return false;
    VkPhysicalDeviceExternalBufferInfo info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO};
    info.usage = usage;
    info.handleType = kHostAllocation;
    VkExternalBufferProperties properties{VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES};
    vkGetPhysicalDeviceExternalBufferProperties(physical, &info, &properties);
    const VkExternalMemoryProperties& memory = properties.externalMemoryProperties;
    return (memory.externalMemoryFeatures & VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT) &&
           (memory.compatibleHandleTypes & kHostAllocation);
}

uint64_t hostImportAlignment(const Context& context)
{
    return importAlignment(context.physicalDevice());
}

HostPages mapHostPages(uint64_t bytes, uint64_t alignment, const std::string& what, bool populate)
{
    bytes = (std::max<uint64_t>(bytes, 1) + alignment - 1) / alignment * alignment;
    HostPages pages;
    pages.mappingBytes = size_t(bytes + alignment);
    void* mapping = mmap(nullptr, pages.mappingBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping == MAP_FAILED) {
        pages.mappingBytes = 0;
        fail("could not map " + formatBytes(bytes) + " of host memory for the " + what + ": free host memory");
    }
    pages.mapping = mapping;
    pages.data = reinterpret_cast<std::byte*>((reinterpret_cast<uintptr_t>(mapping) + alignment - 1) / alignment * alignment);
    if (populate)
        populatePages(pages.data, size_t(bytes)); // on every core: the driver's own allocation zeroes on one
    return pages;
}

Buffer importHostRange(Context& context, std::byte* data, uint64_t size, VkBufferUsageFlags usage,
                       const std::string& what)
{
    VkDevice device = context.device();
    uint64_t alignment = importAlignment(context.physicalDevice());
    uint64_t bytes = (std::max<uint64_t>(size, 1) + alignment - 1) / alignment * alignment;

    Buffer buffer;
    VkExternalMemoryBufferCreateInfo external{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
    external.handleTypes = kHostAllocation;
    VkBufferCreateInfo createInfo{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, &external};
    createInfo.size = size;
    createInfo.usage = usage;
    createInfo.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VK_CHECK(vkCreateBuffer(device, &createInfo, nullptr, &buffer.buffer));
    buffer.owner = &context.allocator(); // destroys the handle from here on, counting nothing (not device-local)
    buffer.size = size;
    VkMemoryRequirements requirements;
    vkGetBufferMemoryRequirements(device, buffer.buffer, &requirements);

    VkMemoryHostPointerPropertiesEXT pointer{VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
    VK_CHECK(vkGetMemoryHostPointerPropertiesEXT(device, kHostAllocation, data, &pointer));
    VkPhysicalDeviceMemoryProperties memory;
    vkGetPhysicalDeviceMemoryProperties(context.physicalDevice(), &memory);
    uint32_t chosen = UINT32_MAX;
    for (uint32_t i = 0; i < memory.memoryTypeCount && chosen == UINT32_MAX; ++i)
        if ((pointer.memoryTypeBits & requirements.memoryTypeBits & (1u << i)) &&
            (memory.memoryTypes[i].propertyFlags & kCoherent) == kCoherent)
            chosen = i;
    if (chosen == UINT32_MAX)
        fail("the device imports host memory for the " + what + " in no coherent host-visible memory type (an "
             "engine bug: canImportHostMemory should have said)");

    VkImportMemoryHostPointerInfoEXT import{VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT};
    import.handleType = kHostAllocation;
    import.pHostPointer = data;
    VkMemoryAllocateInfo allocateInfo{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &import};
    allocateInfo.allocationSize = bytes;
    allocateInfo.memoryTypeIndex = chosen;
    VkResult imported = vkAllocateMemory(device, &allocateInfo, nullptr, &buffer.memory);
    if (imported == VK_ERROR_OUT_OF_HOST_MEMORY || imported == VK_ERROR_OUT_OF_DEVICE_MEMORY ||
        imported == VK_ERROR_INVALID_EXTERNAL_HANDLE)
        fail("the device could not import " + formatBytes(bytes) + " of host memory for the " + what +
             " (VkResult " + std::to_string(int(imported)) + "): free host memory");
    VK_CHECK(imported);
    buffer.allocated = bytes;
    VK_CHECK(vkBindBufferMemory(device, buffer.buffer, buffer.memory, 0));
    return buffer;
}

HostImportedBuffer importHostBuffer(Context& context, uint64_t size, VkBufferUsageFlags usage, const std::string& what)
{
    HostImportedBuffer result;
    result.pages = mapHostPages(size, importAlignment(context.physicalDevice()), what);
    result.buffer = importHostRange(context, result.pages.data, size, usage, what);
    return result;
}

} // namespace isoscope
