#pragma once
// The Vulkan device isoscope runs on: its own (create), or a host
// renderer's (wrap), the way Dear ImGui's Vulkan backend takes the host's
// device. Every other isoscope object is made from a Context and must be
// destroyed before it.
//
//   auto context = isoscope::api::Context::create();               // its own device
//
//   auto setup = isoscope::api::DeviceSetup::query(instance, physicalDevice);
//   createInfo.pNext = setup->features();                           // the host's device, with
//   createInfo.ppEnabledExtensionNames = setup->extensions().data(); // what isoscope needs
//   auto context = isoscope::api::Context::wrap({instance, physicalDevice, device, family, queue}, *setup);
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include <vulkan/vulkan_core.h>

#include "isoscope/export.h"
#include "isoscope/handle.h"
#include "isoscope/result.h"

namespace isoscope::api {

namespace detail {
struct ContextImpl;
} // namespace detail

struct ContextOptions {
    bool validation = false;    // Khronos validation with synchronization validation (create() only)
    std::string device;         // create() only: an index or a name substring; empty: the fastest device
    // Validation messages, and nothing else; without one they go to stderr.
    std::function<void(std::string_view)> onMessage;
    bool pipelineCacheOnDisk = true; // create() only: compiled pipelines kept in ~/.cache/isoscope
};

// The features and extensions isoscope needs on a host's device (Vulkan 1.3,
// synchronization2, maintenance4, subgroup size control, dynamic rendering,
// VK_KHR_push_descriptor), plus the optional ones the device has that its
// shaders use. The host chains its own feature structs after features()'s
// and adds its own extensions (a swapchain's) to extensions().
class ISOSCOPE_API DeviceSetup {
public:
    // Fails (DeviceUnsupported) naming what the device lacks.
    static Result<DeviceSetup> query(VkInstance instance, VkPhysicalDevice physicalDevice);
    DeviceSetup(DeviceSetup&&) noexcept;
    DeviceSetup& operator=(DeviceSetup&&) noexcept;
    ~DeviceSetup();

    // A VkPhysicalDeviceFeatures2 chain for VkDeviceCreateInfo::pNext; it
    // lives as long as this object.
    VkPhysicalDeviceFeatures2* features();
    std::vector<const char*>& extensions();
    // The queue family to create the queue isoscope uses from (graphics and compute).
    uint32_t queueFamily() const;

private:
    DeviceSetup();
    friend class Context;
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// A host's Vulkan objects. isoscope destroys none of them; it records into
// and submits to `queue` from the thread that calls it, holding
// `queueMutex` (when given) around each use of the queue.
struct HostVulkan {
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    uint32_t queueFamily = 0;
    VkQueue queue = VK_NULL_HANDLE;
    VkPipelineCache pipelineCache = VK_NULL_HANDLE; // optional: isoscope's pipelines go into the host's cache
    // Optional: the host's lock on `queue` (Context::queueMutex() is it then).
    std::mutex* queueMutex = nullptr;
};

// A Vulkan device as isoscope sees it: Context::info() for the one in use,
// Context::devices() for every one the instance found.
struct DeviceInfo {
    uint32_t index = 0;            // what ContextOptions::device takes (as `isoscope info` lists them)
    std::string name;
    std::string type;              // "discrete", "integrated", "virtual", "cpu" or "other"
    uint32_t apiVersion = 0;       // VK_MAKE_API_VERSION
    bool usable = false;           // has what isoscope needs; whyNot says what it lacks otherwise
    std::string whyNot;
    // Only in info(), the device in use:
    std::string driver;
    uint32_t subgroupSize = 0;
    uint64_t deviceLocalBytes = 0; // the device-local heaps' size
    uint64_t budgetBytes = 0;      // what isoscope may allocate (VK_EXT_memory_budget, else a share of the heaps)
    uint32_t maxImageDimension3D = 0; // the largest volume side the 3D image takes
};

// Device memory now, for an overlay: what isoscope's own allocations hold
// (always known), and where the device reports VK_EXT_memory_budget what
// the whole process uses of its device-local heaps (the host's allocations
// included) against their budget.
struct DeviceMemory {
    uint64_t isoscopeBytes = 0;     // device-local memory isoscope's objects hold now
    uint64_t isoscopePeakBytes = 0; // the most they held at once since the Context was made
    bool budgetReported = false;    // VK_EXT_memory_budget enabled: the two below are the driver's
    uint64_t usedBytes = 0;         // the device-local heaps' usage by this process (budgetReported only)
    uint64_t budgetBytes = 0;       // what the process may use of them (without the extension: their size)
};

// Threads. One thread draws: it records frames (Renderer) and changes what
// they draw. Another thread may meanwhile load a volume and make the
// Isosurface, IsoRaycast and VolumeRendering of it (Volume::load's progress
// callback tells a window how far it got), which share nothing with the
// objects the frames draw, provided the host holds queueMutex() around its
// own uses of the queue (vkQueueSubmit, vkQueuePresentKHR, vkQueueWaitIdle,
// vkDeviceWaitIdle): isoscope holds it around its own. Those objects are
// then handed to the drawing thread. Anything else happens on one thread.
class ISOSCOPE_API Context : public detail::Handle<detail::ContextImpl> {
public:
    using Handle::Handle;

    static Result<Context> create(const ContextOptions& options = {});
    // `setup` is what the host created its device with (DeviceSetup::query):
    // isoscope's shaders use exactly the optional features it enabled.
    static Result<Context> wrap(const HostVulkan& host, const DeviceSetup& setup, const ContextOptions& options = {});

    std::string deviceName() const;
    uint32_t subgroupSize() const;
    DeviceInfo info() const;
    std::vector<DeviceInfo> devices() const; // empty for a wrapped (host's) device
    // Read afresh at each call (one vkGetPhysicalDeviceMemoryProperties2): cheap enough for every frame.
    DeviceMemory memory() const;
    VkInstance instance() const;
    VkPhysicalDevice physicalDevice() const;
    VkDevice device() const;
    VkQueue queue() const;
    uint32_t queueFamily() const;
    // The lock on queue(): HostVulkan::queueMutex, or the Context's own.
    std::mutex& queueMutex() const;
};

} // namespace isoscope::api
