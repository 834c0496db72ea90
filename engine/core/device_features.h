#pragma once
// What isoscope needs of a Vulkan device and what it turns on when one is
// created: the engine's own device (context.cpp) and a host's device
// (api DeviceSetup) are made from the same chain.
#include <cstdint>
#include <string>
#include <vector>

#include <volk.h>

#include "core/device_info.h"

namespace isoscope {

bool hasDeviceExtension(VkPhysicalDevice physical, const char* name);

// The queue family the engine uses: graphics+compute (the raster pass shares
// it), else compute alone. UINT32_MAX when there is none.
uint32_t findQueueFamily(VkPhysicalDevice physical);
// A family with transfer but neither graphics nor compute (a copy engine of
// its own, as NVIDIA's), or UINT32_MAX where the device has none.
uint32_t findDedicatedTransferFamily(VkPhysicalDevice physical);

// What a device lacks for isoscope, or "" when it has all of it. Queried
// with 1.3 structures only where the device reports 1.3.
std::string missingRequirement(VkPhysicalDevice physical, const VkPhysicalDeviceProperties& properties);

// The required features, and each optional one the device has, as a chain
// for VkDeviceCreateInfo::pNext, with the extensions to enable. Holds
// pointers into itself: neither copied nor moved.
struct DeviceFeatureChain {
    DeviceFeatureChain(VkPhysicalDevice physical, bool pipelineStatistics);
    DeviceFeatureChain(const DeviceFeatureChain&) = delete;
    DeviceFeatureChain& operator=(const DeviceFeatureChain&) = delete;

    // What shaders may rely on once a device is created with this chain.
    decltype(DeviceInfo::features) enabled() const;

    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
    VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executable{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    VkPhysicalDeviceShaderClockFeaturesKHR clock{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR};
    std::vector<const char*> extensions;
    bool memoryBudget = false;       // VK_EXT_memory_budget among the extensions
    bool pipelineStatistics = false; // VK_KHR_pipeline_executable_properties among them
};

} // namespace isoscope
