#pragma once
// The host's VkInstance (Vulkan 1.3) and, with validation, Khronos
// validation with synchronization validation and a messenger that prints
// and counts every warning and error (main() exits 3 when any were counted).
#include <atomic>
#include <memory>
#include <vector>

#include <vulkan/vulkan_core.h>

namespace samplehost {

// Outlives the instance: its destruction can still report (leaked objects).
struct ValidationLog {
    std::atomic<uint32_t> messages{0};
};

struct HostInstance {
    VkInstance instance = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;

    HostInstance() = default;
    HostInstance(const HostInstance&) = delete;
    HostInstance& operator=(const HostInstance&) = delete;
    ~HostInstance();
};

// `extensions`: what the window system needs (empty when headless);
// `applicationName` goes into VkApplicationInfo (tools and layers show it).
std::unique_ptr<HostInstance> createHostInstance(const char* applicationName, bool validation,
                                                 std::vector<const char*> extensions, ValidationLog& log);

} // namespace samplehost
