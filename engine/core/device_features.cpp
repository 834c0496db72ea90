#include "core/device_features.h"

#include <algorithm>
#include <cstring>

#include "core/text.h"
#include "core/vk_check.h"

namespace isoscope {

bool hasDeviceExtension(VkPhysicalDevice physical, const char* name)
{
    std::vector<VkExtensionProperties> extensions = enumerateAll<VkExtensionProperties>(
        [&](uint32_t* count, auto* items) {
            VK_CHECK(vkEnumerateDeviceExtensionProperties(physical, nullptr, count, items));
        });
    return std::any_of(extensions.begin(), extensions.end(),
                       [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

uint32_t findQueueFamily(VkPhysicalDevice physical)
{
    std::vector<VkQueueFamilyProperties> families = enumerateAll<VkQueueFamilyProperties>(
        [&](uint32_t* count, auto* items) { vkGetPhysicalDeviceQueueFamilyProperties(physical, count, items); });
    uint32_t count = uint32_t(families.size());
    for (uint32_t i = 0; i < count; ++i)
        if ((families[i].queueFlags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) ==
            (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT))
            return i;
    for (uint32_t i = 0; i < count; ++i)
        if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
            return i;
    return UINT32_MAX;
}

uint32_t findDedicatedTransferFamily(VkPhysicalDevice physical)
{
    std::vector<VkQueueFamilyProperties> families = enumerateAll<VkQueueFamilyProperties>(
        [&](uint32_t* count, auto* items) { vkGetPhysicalDeviceQueueFamilyProperties(physical, count, items); });
    for (uint32_t i = 0; i < uint32_t(families.size()); ++i)
        if ((families[i].queueFlags & VK_QUEUE_TRANSFER_BIT) &&
            !(families[i].queueFlags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)))
            return i;
    return UINT32_MAX;
}

std::string missingRequirement(VkPhysicalDevice physical, const VkPhysicalDeviceProperties& properties)
{
    if (properties.apiVersion < VK_API_VERSION_1_3)
        return "supports Vulkan " + std::to_string(VK_API_VERSION_MAJOR(properties.apiVersion)) + "." +
               std::to_string(VK_API_VERSION_MINOR(properties.apiVersion)) + ", isoscope needs 1.3";
    VkPhysicalDeviceVulkan13Features features13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &features13};
    vkGetPhysicalDeviceFeatures2(physical, &features);
    VkPhysicalDeviceSubgroupSizeControlProperties sizeControl{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
    VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES, &sizeControl};
    VkPhysicalDeviceProperties2 properties2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
    vkGetPhysicalDeviceProperties2(physical, &properties2);
    const VkSubgroupFeatureFlags operations = VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_VOTE_BIT |
                                              VK_SUBGROUP_FEATURE_ARITHMETIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT |
                                              VK_SUBGROUP_FEATURE_SHUFFLE_BIT;
    if (findQueueFamily(physical) == UINT32_MAX)
        return "has no compute queue";
    if (!features13.synchronization2 || !features13.maintenance4)
        return "lacks synchronization2 or maintenance4";
    // Shaders are specialized on the subgroup size, so it must be fixed per
    // pipeline: Vulkan 1.3 devices have subgroup size control for compute.
    if (!features13.subgroupSizeControl || !(sizeControl.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT))
        return "cannot fix the subgroup size of compute shaders (subgroupSizeControl)";
    if (!(subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) ||
        (subgroup.supportedOperations & operations) != operations)
        return "lacks subgroup vote, arithmetic, ballot or shuffle operations in compute shaders";
    if (!hasDeviceExtension(physical, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME))
        return "lacks VK_KHR_push_descriptor";
    return "";
}

DeviceFeatureChain::DeviceFeatureChain(VkPhysicalDevice physical, bool wantPipelineStatistics)
{
    VkPhysicalDeviceVulkan13Features supported13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceVulkan12Features supported12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &supported13};
    VkPhysicalDeviceVulkan11Features supported11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &supported12};
    VkPhysicalDeviceFeatures2 supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &supported11};
    vkGetPhysicalDeviceFeatures2(physical, &supported);

    // Enable what the engine can use, where the device has it.
    v13.synchronization2 = VK_TRUE;
    v13.maintenance4 = VK_TRUE;
    v13.subgroupSizeControl = supported13.subgroupSizeControl;
    v13.computeFullSubgroups = supported13.computeFullSubgroups;
    v13.dynamicRendering = supported13.dynamicRendering;
    v12.pNext = &v13;
    v12.storageBuffer8BitAccess = supported12.storageBuffer8BitAccess;
    v12.shaderInt8 = supported12.shaderInt8;
    v12.scalarBlockLayout = supported12.scalarBlockLayout;
    v12.hostQueryReset = supported12.hostQueryReset;
    v12.timelineSemaphore = supported12.timelineSemaphore;
    v12.bufferDeviceAddress = supported12.bufferDeviceAddress;
    v12.shaderBufferInt64Atomics = supported12.shaderBufferInt64Atomics;
    v11.pNext = &v12;
    v11.storageBuffer16BitAccess = supported11.storageBuffer16BitAccess;
    features.pNext = &v11;
    features.features.shaderInt16 = supported.features.shaderInt16;
    features.features.shaderInt64 = supported.features.shaderInt64;
    features.features.shaderStorageImageWriteWithoutFormat = supported.features.shaderStorageImageWriteWithoutFormat;

    extensions = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
    memoryBudget = hasDeviceExtension(physical, VK_EXT_MEMORY_BUDGET_EXTENSION_NAME);
    if (memoryBudget)
        extensions.push_back(VK_EXT_MEMORY_BUDGET_EXTENSION_NAME);
    // Staging the engine maps itself (core/host_import.h), wherever the device has it.
    if (hasDeviceExtension(physical, VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME))
        extensions.push_back(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
    if (wantPipelineStatistics && hasDeviceExtension(physical, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME)) {
        extensions.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
        executable.pipelineExecutableInfo = VK_TRUE;
        executable.pNext = features.pNext;
        features.pNext = &executable;
        pipelineStatistics = true;
    }

    // Shader clocks cost nothing enabled; they let a shader variant run
    // through ISOSCOPE_SHADER_DIR time its own parts (docs/BENCHMARKS.md).
    if (hasDeviceExtension(physical, VK_KHR_SHADER_CLOCK_EXTENSION_NAME)) {
        VkPhysicalDeviceShaderClockFeaturesKHR supportedClock{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR};
        VkPhysicalDeviceFeatures2 query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &supportedClock};
        vkGetPhysicalDeviceFeatures2(physical, &query);
        extensions.push_back(VK_KHR_SHADER_CLOCK_EXTENSION_NAME);
        clock.shaderSubgroupClock = supportedClock.shaderSubgroupClock;
        clock.shaderDeviceClock = supportedClock.shaderDeviceClock;
        clock.pNext = features.pNext;
        features.pNext = &clock;
    }
}

decltype(DeviceInfo::features) DeviceFeatureChain::enabled() const
{
    decltype(DeviceInfo::features) result;
    result.shaderInt8 = v12.shaderInt8;
    result.shaderInt16 = features.features.shaderInt16;
    result.shaderInt64 = features.features.shaderInt64;
    result.storageBuffer8BitAccess = v12.storageBuffer8BitAccess;
    result.storageBuffer16BitAccess = v11.storageBuffer16BitAccess;
    result.scalarBlockLayout = v12.scalarBlockLayout;
    result.hostQueryReset = v12.hostQueryReset;
    result.timelineSemaphore = v12.timelineSemaphore;
    result.dynamicRendering = v13.dynamicRendering;
    result.bufferDeviceAddress = v12.bufferDeviceAddress;
    result.shaderBufferInt64Atomics = v12.shaderBufferInt64Atomics;
    result.storageImageWriteWithoutFormat = features.features.shaderStorageImageWriteWithoutFormat;
    return result;
}

} // namespace isoscope
