#pragma once
// The host's physical device (the first, or the one whose name contains env
// ISOSCOPE_DEVICE), and its VkDevice created with what isoscope needs
// (isoscope::api::DeviceSetup) plus VK_KHR_swapchain when windowed, with
// one queue of the family isoscope names.
#include <memory>
#include <optional>
#include <string>

#include <vulkan/vulkan_core.h>

#include <isoscope/context.h>

namespace samplehost {

struct HostDevice {
    VkInstance instance = VK_NULL_HANDLE; // not owned
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    std::string name;
    VkDevice device = VK_NULL_HANDLE;
    uint32_t family = 0;
    VkQueue queue = VK_NULL_HANDLE;
    // What the device was created with; Context::wrap reads it.
    std::optional<isoscope::api::DeviceSetup> setup;

    HostDevice() = default;
    HostDevice(const HostDevice&) = delete;
    HostDevice& operator=(const HostDevice&) = delete;
    ~HostDevice();
};

std::unique_ptr<HostDevice> createHostDevice(VkInstance instance, bool windowed);

} // namespace samplehost
