#include "core/device_info.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "core/vk_check.h"

namespace isoscope {

const char* deviceTypeName(VkPhysicalDeviceType type)
{
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
    }
}

namespace {

std::string versionString(uint32_t v)
{
    return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) + "." +
           std::to_string(VK_API_VERSION_PATCH(v));
}

} // namespace

uint32_t DeviceInfo::maxWorkgroupInvocations() const
{
    uint32_t limit = maxComputeWorkGroupInvocations;
    if (subgroupSizeControl && maxComputeWorkgroupSubgroups)
        limit = std::min(limit, subgroupSize * maxComputeWorkgroupSubgroups);
    return limit;
}

std::vector<std::string> subgroupOperationNames(VkSubgroupFeatureFlags operations)
{
    static const std::pair<VkSubgroupFeatureFlagBits, const char*> names[] = {
        {VK_SUBGROUP_FEATURE_BASIC_BIT, "basic"},
        {VK_SUBGROUP_FEATURE_VOTE_BIT, "vote"},
        {VK_SUBGROUP_FEATURE_ARITHMETIC_BIT, "arithmetic"},
        {VK_SUBGROUP_FEATURE_BALLOT_BIT, "ballot"},
        {VK_SUBGROUP_FEATURE_SHUFFLE_BIT, "shuffle"},
        {VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT, "shuffle_relative"},
        {VK_SUBGROUP_FEATURE_CLUSTERED_BIT, "clustered"},
        {VK_SUBGROUP_FEATURE_QUAD_BIT, "quad"},
    };
    std::vector<std::string> result;
    for (auto [bit, name] : names)
        if (operations & bit)
            result.push_back(name);
    return result;
}

void refreshMemoryBudget(VkPhysicalDevice physical, DeviceInfo& info)
{
    if (!info.memoryBudget)
        return;
    VkPhysicalDeviceMemoryBudgetPropertiesEXT budget{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT};
    VkPhysicalDeviceMemoryProperties2 memory{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2, &budget};
    vkGetPhysicalDeviceMemoryProperties2(physical, &memory);
    for (size_t i = 0; i < info.heaps.size(); ++i) {
        info.heaps[i].budget = budget.heapBudget[i];
        info.heaps[i].usage = budget.heapUsage[i];
    }
}

DeviceInfo queryDeviceInfo(VkPhysicalDevice physical, uint32_t queueFamily, bool memoryBudget)
{
    // The engine binds every descriptor by VK_KHR_push_descriptor, which a
    // usable device has (Context checks), so its properties may be chained.
    VkPhysicalDevicePushDescriptorPropertiesKHR pushDescriptor{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR};
    VkPhysicalDeviceSubgroupSizeControlProperties sizeControl{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES, &pushDescriptor};
    VkPhysicalDeviceMaintenance4Properties maintenance4{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES,
                                                        &sizeControl};
    VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES, &maintenance4};
    VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES, &driver};
    VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
    vkGetPhysicalDeviceProperties2(physical, &properties);

    VkPhysicalDeviceVulkan13Features features13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &features13};
    vkGetPhysicalDeviceFeatures2(physical, &features);

    const VkPhysicalDeviceLimits& limits = properties.properties.limits;
    DeviceInfo info;
    info.name = properties.properties.deviceName;
    info.type = deviceTypeName(properties.properties.deviceType);
    info.driver = std::string(driver.driverName) + " " + driver.driverInfo;
    info.apiVersion = properties.properties.apiVersion;
    info.vendorId = properties.properties.vendorID;
    info.deviceId = properties.properties.deviceID;
    std::copy(std::begin(properties.properties.pipelineCacheUUID), std::end(properties.properties.pipelineCacheUUID),
              info.pipelineCacheUuid.begin());

    info.subgroupSize = subgroup.subgroupSize;
    info.subgroupOperations = subgroup.supportedOperations;
    info.subgroupInCompute = (subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0;
    info.subgroupSizeControl =
        features13.subgroupSizeControl && (sizeControl.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT);
    info.computeFullSubgroups = features13.computeFullSubgroups;
    info.minSubgroupSize = info.subgroupSizeControl ? sizeControl.minSubgroupSize : subgroup.subgroupSize;
    info.maxSubgroupSize = info.subgroupSizeControl ? sizeControl.maxSubgroupSize : subgroup.subgroupSize;
    info.maxComputeWorkgroupSubgroups = sizeControl.maxComputeWorkgroupSubgroups;

    info.maxComputeSharedMemorySize = limits.maxComputeSharedMemorySize;
    info.maxComputeWorkGroupInvocations = limits.maxComputeWorkGroupInvocations;
    for (int i = 0; i < 3; ++i) {
        info.maxComputeWorkGroupSize[i] = limits.maxComputeWorkGroupSize[i];
        info.maxComputeWorkGroupCount[i] = limits.maxComputeWorkGroupCount[i];
    }
    info.maxImageDimension3D = limits.maxImageDimension3D;
    info.maxStorageBufferRange = limits.maxStorageBufferRange;
    info.minStorageBufferOffsetAlignment = limits.minStorageBufferOffsetAlignment;
    info.maxBufferSize = maintenance4.maxBufferSize;
    info.maxPushConstantsSize = limits.maxPushConstantsSize;
    info.maxPerStageDescriptorStorageBuffers = limits.maxPerStageDescriptorStorageBuffers;
    info.maxPerStageDescriptorUniformBuffers = limits.maxPerStageDescriptorUniformBuffers;
    info.maxPerStageDescriptorSampledImages = limits.maxPerStageDescriptorSampledImages;
    info.maxPerStageDescriptorStorageImages = limits.maxPerStageDescriptorStorageImages;
    info.maxPerStageDescriptorSamplers = limits.maxPerStageDescriptorSamplers;
    info.maxPerStageResources = limits.maxPerStageResources;
    info.maxPushDescriptors = pushDescriptor.maxPushDescriptors;
    info.timestampPeriodNs = limits.timestampPeriod;

    std::vector<VkQueueFamilyProperties> families = enumerateAll<VkQueueFamilyProperties>(
        [&](uint32_t* count, auto* items) { vkGetPhysicalDeviceQueueFamilyProperties(physical, count, items); });
    if (queueFamily < families.size())
        info.timestampValidBits = families[queueFamily].timestampValidBits;

    VkPhysicalDeviceMemoryProperties memory;
    vkGetPhysicalDeviceMemoryProperties(physical, &memory);
    for (uint32_t i = 0; i < memory.memoryHeapCount; ++i)
        info.heaps.push_back({memory.memoryHeaps[i].size,
                              (memory.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) != 0, 0, 0});
    info.memoryBudget = memoryBudget;
    refreshMemoryBudget(physical, info);
    return info;
}

nlohmann::json toJson(const DeviceInfo& info)
{
    nlohmann::json heaps = nlohmann::json::array();
    for (const MemoryHeapInfo& heap : info.heaps) {
        nlohmann::json h = {{"size_bytes", heap.size}, {"device_local", heap.deviceLocal}};
        if (info.memoryBudget) {
            h["budget_bytes"] = heap.budget;
            h["usage_bytes"] = heap.usage;
        }
        heaps.push_back(h);
    }
    return {
        {"name", info.name},
        {"type", info.type},
        {"driver", info.driver},
        {"api_version", versionString(info.apiVersion)},
        {"vendor_id", info.vendorId},
        {"device_id", info.deviceId},
        {"subgroup",
         {{"size", info.subgroupSize},
          {"min_size", info.minSubgroupSize},
          {"max_size", info.maxSubgroupSize},
          {"operations", subgroupOperationNames(info.subgroupOperations)},
          {"in_compute", info.subgroupInCompute},
          {"size_control", info.subgroupSizeControl},
          {"compute_full_subgroups", info.computeFullSubgroups}}},
        {"limits",
         {{"max_compute_shared_memory_bytes", info.maxComputeSharedMemorySize},
          {"max_compute_workgroup_invocations", info.maxComputeWorkGroupInvocations},
          {"max_compute_workgroup_subgroups", info.maxComputeWorkgroupSubgroups},
          {"max_workgroup_invocations_at_subgroup_size", info.maxWorkgroupInvocations()},
          {"max_compute_workgroup_size", info.maxComputeWorkGroupSize},
          {"max_compute_workgroup_count", info.maxComputeWorkGroupCount},
          {"max_image_dimension_3d", info.maxImageDimension3D},
          {"max_storage_buffer_range_bytes", info.maxStorageBufferRange},
          {"max_buffer_size_bytes", info.maxBufferSize},
          {"max_push_constants_bytes", info.maxPushConstantsSize},
          {"max_per_stage_storage_buffers", info.maxPerStageDescriptorStorageBuffers},
          {"max_per_stage_uniform_buffers", info.maxPerStageDescriptorUniformBuffers},
          {"max_per_stage_sampled_images", info.maxPerStageDescriptorSampledImages},
          {"max_per_stage_storage_images", info.maxPerStageDescriptorStorageImages},
          {"max_per_stage_samplers", info.maxPerStageDescriptorSamplers},
          {"max_per_stage_resources", info.maxPerStageResources},
          {"max_push_descriptors", info.maxPushDescriptors},
          {"timestamp_period_ns", info.timestampPeriodNs},
          {"timestamp_valid_bits", info.timestampValidBits}}},
        {"features",
         {{"shader_int8", info.features.shaderInt8},
          {"shader_int16", info.features.shaderInt16},
          {"shader_int64", info.features.shaderInt64},
          {"shader_buffer_int64_atomics", info.features.shaderBufferInt64Atomics},
          {"storage_buffer_8bit_access", info.features.storageBuffer8BitAccess},
          {"storage_buffer_16bit_access", info.features.storageBuffer16BitAccess},
          {"scalar_block_layout", info.features.scalarBlockLayout},
          {"host_query_reset", info.features.hostQueryReset},
          {"dynamic_rendering", info.features.dynamicRendering},
          {"buffer_device_address", info.features.bufferDeviceAddress},
          {"storage_image_write_without_format", info.features.storageImageWriteWithoutFormat}}},
        {"memory_budget_reported", info.memoryBudget},
        {"memory_heaps", heaps},
    };
}

} // namespace isoscope
