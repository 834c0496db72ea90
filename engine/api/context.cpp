#include "api/api_impl.h"

namespace isoscope::api {

namespace {

isoscope::ContextOptions engineOptions(const ContextOptions& options)
{
    isoscope::ContextOptions result;
    result.validation = options.validation;
    result.deviceSelector = options.device;
    result.pipelineCacheOnDisk = options.pipelineCacheOnDisk;
    if (options.onMessage)
        result.onValidationMessage = [callback = options.onMessage](const std::string& message) { callback(message); };
    return result;
}

} // namespace

DeviceSetup::DeviceSetup() : impl_(std::make_unique<Impl>()) {}
DeviceSetup::DeviceSetup(DeviceSetup&&) noexcept = default;
DeviceSetup& DeviceSetup::operator=(DeviceSetup&&) noexcept = default;
DeviceSetup::~DeviceSetup() = default;

Result<DeviceSetup> DeviceSetup::query(VkInstance instance, VkPhysicalDevice physicalDevice)
{
    return guarded<DeviceSetup>(ErrorCode::DeviceUnsupported, [&]() -> Result<DeviceSetup> {
        if (!instance || !physicalDevice)
            return Error{ErrorCode::InvalidArgument, "DeviceSetup::query: the instance or physical device is VK_NULL_HANDLE"};
        if (volkInitialize() != VK_SUCCESS)
            return Error{ErrorCode::DeviceUnsupported, "no Vulkan loader found (libvulkan.so.1)"};
        volkLoadInstanceOnly(instance);
        VkPhysicalDeviceProperties properties;
        vkGetPhysicalDeviceProperties(physicalDevice, &properties);
        std::string missing = isoscope::missingRequirement(physicalDevice, properties);
        if (!missing.empty())
            return Error{ErrorCode::DeviceUnsupported, std::string(properties.deviceName) + " " + missing};
        DeviceSetup setup;
        setup.impl_->chain = std::make_unique<isoscope::DeviceFeatureChain>(physicalDevice, false);
        setup.impl_->extensions = setup.impl_->chain->extensions;
        setup.impl_->queueFamily = isoscope::findQueueFamily(physicalDevice);
        return setup;
    });
}

VkPhysicalDeviceFeatures2* DeviceSetup::features() { return &impl_->chain->features; }
std::vector<const char*>& DeviceSetup::extensions() { return impl_->extensions; }
uint32_t DeviceSetup::queueFamily() const { return impl_->queueFamily; }


Result<Context> Context::create(const ContextOptions& options)
{
    return guarded<Context>(ErrorCode::DeviceUnsupported, [&] {
        return Context(own(new detail::ContextImpl{std::make_unique<isoscope::Context>(engineOptions(options))}));
    });
}

Result<Context> Context::wrap(const HostVulkan& host, const DeviceSetup& setup, const ContextOptions& options)
{
    return guarded<Context>(ErrorCode::DeviceUnsupported, [&] {
        isoscope::HostDevice device{host.instance, host.physicalDevice, host.device, host.queue, host.queueFamily,
                                    setup.impl_->chain->enabled(), host.pipelineCache, host.queueMutex};
        return Context(own(new detail::ContextImpl{std::make_unique<isoscope::Context>(device, engineOptions(options))}));
    });
}

std::string Context::deviceName() const { return impl().context->info().name; }
uint32_t Context::subgroupSize() const { return impl().context->info().subgroupSize; }

DeviceInfo Context::info() const
{
    const isoscope::Context& engine = *impl().context;
    const isoscope::DeviceInfo& device = engine.info();
    DeviceInfo result;
    result.index = engine.chosenDeviceIndex();
    result.name = device.name;
    result.type = device.type;
    result.apiVersion = device.apiVersion;
    result.usable = true;
    result.driver = device.driver;
    result.subgroupSize = device.subgroupSize;
    for (const isoscope::MemoryHeapInfo& heap : device.heaps)
        if (heap.deviceLocal)
            result.deviceLocalBytes += heap.size;
    result.budgetBytes = engine.allocator().deviceBudgetBytes();
    result.maxImageDimension3D = device.maxImageDimension3D;
    return result;
}

std::vector<DeviceInfo> Context::devices() const
{
    std::vector<DeviceInfo> result;
    for (const isoscope::PhysicalDeviceSummary& device : impl().context->devices()) {
        DeviceInfo& entry = result.emplace_back();
        entry.index = device.index;
        entry.name = device.name;
        entry.type = device.type;
        entry.apiVersion = device.apiVersion;
        entry.usable = device.usable;
        entry.whyNot = device.whyNot;
    }
    return result;
}
DeviceMemory Context::memory() const
{
    const isoscope::Context& engine = *impl().context;
    isoscope::DeviceInfo device = engine.info();
    isoscope::refreshMemoryBudget(engine.physicalDevice(), device);
    DeviceMemory result;
    result.isoscopeBytes = engine.allocator().currentDeviceBytes();
    result.isoscopePeakBytes = engine.allocator().peakDeviceBytes();
    result.budgetReported = device.memoryBudget;
    for (const isoscope::MemoryHeapInfo& heap : device.heaps)
        if (heap.deviceLocal) {
            result.usedBytes += device.memoryBudget ? heap.usage : 0;
            result.budgetBytes += device.memoryBudget ? heap.budget : heap.size;
        }
    return result;
}

VkInstance Context::instance() const { return impl().context->instance(); }
VkPhysicalDevice Context::physicalDevice() const { return impl().context->physicalDevice(); }
VkDevice Context::device() const { return impl().context->device(); }
VkQueue Context::queue() const { return impl().context->queue(); }
uint32_t Context::queueFamily() const { return impl().context->queueFamily(); }
std::mutex& Context::queueMutex() const { return impl().context->queueMutex(); }

} // namespace isoscope::api
