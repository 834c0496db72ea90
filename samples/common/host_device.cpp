#include "host_device.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <vector>

#include "check.h"

namespace samplehost {
namespace {

std::string lower(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}

VkPhysicalDevice pickPhysicalDevice(VkInstance instance, std::string& name)
{
    uint32_t count = 0;
    VK_CHECK(vkEnumeratePhysicalDevices(instance, &count, nullptr));
    std::vector<VkPhysicalDevice> devices(count);
    VK_CHECK(vkEnumeratePhysicalDevices(instance, &count, devices.data()));
    if (devices.empty())
        throw Failure("no Vulkan device found (is a driver installed? lavapipe: mesa-vulkan-drivers)");

    const char* wanted = std::getenv("ISOSCOPE_DEVICE");
    std::string names;
    for (VkPhysicalDevice device : devices) {
        VkPhysicalDeviceProperties properties;
        vkGetPhysicalDeviceProperties(device, &properties);
        if (!wanted || lower(properties.deviceName).find(lower(wanted)) != std::string::npos) {
            name = properties.deviceName;
            return device;
        }
        names += std::string(names.empty() ? "" : ", ") + properties.deviceName;
    }
    throw Failure(std::string("ISOSCOPE_DEVICE=") + wanted + " names none of the Vulkan devices: " + names);
}

} // namespace

HostDevice::~HostDevice()
{
    if (device)
        vkDestroyDevice(device, nullptr);
}

std::unique_ptr<HostDevice> createHostDevice(VkInstance instance, bool windowed)
{
    auto host = std::make_unique<HostDevice>();
    host->instance = instance;
    host->physical = pickPhysicalDevice(instance, host->name);
    host->setup.emplace(take(isoscope::api::DeviceSetup::query(instance, host->physical), "device " + host->name));
    host->family = host->setup->queueFamily();

    // isoscope's list plus the host's own; features() already holds what
    // the host's pipelines use (dynamic rendering, synchronization2).
    std::vector<const char*> extensions = host->setup->extensions();
    if (windowed)
        extensions.push_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);

    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue.queueFamilyIndex = host->family;
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;

    VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    info.pNext = host->setup->features();
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &queue;
    info.enabledExtensionCount = uint32_t(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    VK_CHECK(vkCreateDevice(host->physical, &info, nullptr, &host->device));
    vkGetDeviceQueue(host->device, host->family, 0, &host->queue);
    return host;
}

} // namespace samplehost
