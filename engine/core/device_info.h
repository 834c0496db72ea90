#pragma once
// What the engine learns about a Vulkan device and passes on: shaders are
// specialized on subgroupSize and sized by the limits here; nothing else in
// the engine assumes a subgroup size (NVIDIA 32, AMD 64 or 32, lavapipe 4 or 8).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>
#include <volk.h>

namespace isoscope {

struct MemoryHeapInfo {
    uint64_t size = 0;
    bool deviceLocal = false;
    uint64_t budget = 0; // VK_EXT_memory_budget; 0 when the device does not report one
    uint64_t usage = 0;
};

struct DeviceInfo {
    std::string name;
    std::string type; // "discrete", "integrated", "virtual", "cpu", "other"
    std::string driver;
    uint32_t apiVersion = 0;
    uint32_t vendorId = 0;
    uint32_t deviceId = 0;
    std::array<uint8_t, VK_UUID_SIZE> pipelineCacheUuid{};

    uint32_t subgroupSize = 0;          // the size compute shaders run at (required when control exists)
    uint32_t minSubgroupSize = 0;
    uint32_t maxSubgroupSize = 0;
    VkSubgroupFeatureFlags subgroupOperations = 0;
    bool subgroupInCompute = false;
    bool subgroupSizeControl = false;   // the size can be required per pipeline
    bool computeFullSubgroups = false;
    uint32_t maxComputeWorkgroupSubgroups = 0; // with a required size, workgroups hold at most this many subgroups

    uint32_t maxComputeSharedMemorySize = 0;
    uint32_t maxComputeWorkGroupInvocations = 0;
    std::array<uint32_t, 3> maxComputeWorkGroupSize{};
    std::array<uint32_t, 3> maxComputeWorkGroupCount{};
    uint32_t maxImageDimension3D = 0;
    uint64_t maxStorageBufferRange = 0;
    uint64_t minStorageBufferOffsetAlignment = 256; // a bound range must start at a multiple
    uint64_t maxBufferSize = 0;         // maintenance4
    uint32_t maxPushConstantsSize = 0;
    // Descriptors one shader stage may see (descriptor_limits.h counts them).
    // They start at Vulkan's guaranteed minimums, so a DeviceInfo that was
    // never queried describes the smallest device the engine may meet.
    uint32_t maxPerStageDescriptorStorageBuffers = 4;
    uint32_t maxPerStageDescriptorUniformBuffers = 12;
    uint32_t maxPerStageDescriptorSampledImages = 16; // combined image samplers and uniform texel buffers too
    uint32_t maxPerStageDescriptorStorageImages = 4;  // storage texel buffers too
    uint32_t maxPerStageDescriptorSamplers = 16;      // combined image samplers too
    uint32_t maxPerStageResources = 128;
    uint32_t maxPushDescriptors = 32;                 // VK_KHR_push_descriptor: every binding of a program
    float timestampPeriodNs = 0.0f;
    uint32_t timestampValidBits = 0;    // on the queue the engine uses

    // Optional features the engine enabled on the device (shaders may rely on
    // them only after checking here).
    struct {
        bool shaderInt8 = false;
        bool shaderInt16 = false;
        bool shaderInt64 = false;
        bool storageBuffer8BitAccess = false;
        bool storageBuffer16BitAccess = false;
        bool scalarBlockLayout = false;
        bool hostQueryReset = false;
        bool timelineSemaphore = false; // graph/graph_queue.h: submissions on two queues without host waits
        bool dynamicRendering = false;
        bool bufferDeviceAddress = false;
        bool shaderBufferInt64Atomics = false; // the single-pass scan's 64-bit tile states
        bool storageImageWriteWithoutFormat = false; // one store shader for every volume format
    } features;

    bool memoryBudget = false;          // VK_EXT_memory_budget enabled
    std::vector<MemoryHeapInfo> heaps;

    // The largest workgroup a compute pipeline may have: with a required
    // subgroup size it is also bounded by subgroupSize × maxComputeWorkgroupSubgroups
    // (128 on lavapipe at size 4).
    uint32_t maxWorkgroupInvocations() const;
};

const char* deviceTypeName(VkPhysicalDeviceType type); // "discrete", "integrated", "virtual", "cpu", "other"
std::vector<std::string> subgroupOperationNames(VkSubgroupFeatureFlags operations);
nlohmann::json toJson(const DeviceInfo& info);

// Reads properties, limits and heaps of a physical device. queueFamily selects
// whose timestamp bits are reported; budget is read when memoryBudget is true.
DeviceInfo queryDeviceInfo(VkPhysicalDevice physical, uint32_t queueFamily, bool memoryBudget);
void refreshMemoryBudget(VkPhysicalDevice physical, DeviceInfo& info);

} // namespace isoscope
