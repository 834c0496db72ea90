#include "core/context.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/device_features.h"
#include "core/pipeline_cache.h"
#include "core/submission.h"
#include "core/text.h"
#include "core/vk_check.h"

namespace isoscope {

namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

VKAPI_ATTR VkBool32 VKAPI_CALL debugCallback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                             VkDebugUtilsMessageTypeFlagsEXT,
                                             const VkDebugUtilsMessengerCallbackDataEXT* data, void* user)
{
    std::string message = severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? "validation error: "
                                                                                    : "validation warning: ";
    if (data->pMessageIdName)
        message += std::string("[") + data->pMessageIdName + "] ";
    message += data->pMessage ? data->pMessage : "";
    static_cast<Context*>(user)->reportValidationMessage(message);
    return VK_FALSE;
}

// Discrete first, then integrated, virtual, CPU (lavapipe), other.
int typeRank(const std::string& type)
{
    static const char* order[] = {"discrete", "integrated", "virtual", "cpu"};
    for (int rank = 0; rank < 4; ++rank)
        if (type == order[rank])
            return rank;
    return 4;
}

} // namespace

bool validationRequestedByEnvironment()
{
    const char* value = std::getenv("ISOSCOPE_VALIDATION");
    return value && *value && std::strcmp(value, "0") != 0;
}

Context::Context(const ContextOptions& options) : options_(options)
{
    if (volkInitialize() != VK_SUCCESS)
        fail("no Vulkan loader found (libvulkan.so.1): install libvulkan1 and a driver "
             "(mesa-vulkan-drivers gives the lavapipe CPU device)");
    try {
        createInstance(options.validation || validationRequestedByEnvironment());
        std::string selector = options.deviceSelector;
        if (selector.empty())
            if (const char* env = std::getenv("ISOSCOPE_DEVICE"))
                selector = env;
        chooseDevice(selector);
        createDevice();
    } catch (...) {
        destroy(); // a destructor does not run for a constructor that throws
        throw;
    }
}

Context::Context(const HostDevice& host, const ContextOptions& options) : options_(options), ownsDevice_(false)
{
    if (volkInitialize() != VK_SUCCESS)
        fail("no Vulkan loader found (libvulkan.so.1): the host's device cannot be used");
    if (!host.instance || !host.physicalDevice || !host.device || !host.queue)
        fail("the host's Vulkan handles are incomplete (instance, physical device, device and queue are all needed)");
    instance_ = host.instance;
    physical_ = host.physicalDevice;
    device_ = host.device;
    queue_ = host.queue;
    queueFamily_ = host.queueFamily;
    transferFamily_ = host.queueFamily; // the host made the device: its one queue serves uploads too
    hostPipelineCache_ = host.pipelineCache;
    if (host.queueMutex)
        queueMutex_ = host.queueMutex;
    try {
        volkLoadInstanceOnly(instance_);
        VkPhysicalDeviceProperties properties;
        vkGetPhysicalDeviceProperties(physical_, &properties);
        std::string missing = missingRequirement(physical_, properties);
        if (!missing.empty())
            fail("the host's device " + std::string(properties.deviceName) + " " + missing);
        volkLoadDevice(device_);
        info_ = queryDeviceInfo(physical_, queueFamily_, false);
        info_.features = host.enabled;
        createDeviceObjects();
    } catch (...) {
        destroy();
        throw;
    }
}

Context::~Context() { destroy(); }

void Context::destroy() noexcept
{
    if (device_) {
        vkDeviceWaitIdle(device_);
        pipelineCache_.reset();
        allocator_.reset();
        vkDestroyFence(device_, fence_, nullptr);
        vkDestroyCommandPool(device_, commandPool_, nullptr);
        if (ownsDevice_)
            vkDestroyDevice(device_, nullptr);
        device_ = VK_NULL_HANDLE;
    }
    if (!ownsDevice_) {
        instance_ = VK_NULL_HANDLE; // the host's
        return;
    }
    if (messenger_)
        vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
    messenger_ = VK_NULL_HANDLE;
    if (instance_)
        vkDestroyInstance(instance_, nullptr);
    instance_ = VK_NULL_HANDLE;
}

void Context::reportValidationMessage(const std::string& message)
{
    if (options_.onValidationMessage)
        options_.onValidationMessage(message);
    else
        std::fprintf(stderr, "isoscope: %s\n", message.c_str());
}

VkPipelineCache Context::pipelineCache() const
{
    return hostPipelineCache_ ? hostPipelineCache_ : pipelineCache_->handle();
}

void Context::createInstance(bool validation)
{
    if (volkGetInstanceVersion() < VK_API_VERSION_1_3)
        fail("the Vulkan loader supports only version " + std::to_string(VK_API_VERSION_MAJOR(volkGetInstanceVersion())) +
             "." + std::to_string(VK_API_VERSION_MINOR(volkGetInstanceVersion())) +
             "; isoscope needs Vulkan 1.3: update libvulkan1");

    std::vector<const char*> layers;
    std::vector<const char*> extensions;
    if (validation) {
        std::vector<VkLayerProperties> available = enumerateAll<VkLayerProperties>(
            [](uint32_t* count, auto* items) { VK_CHECK(vkEnumerateInstanceLayerProperties(count, items)); });
        bool found = std::any_of(available.begin(), available.end(), [](const VkLayerProperties& l) {
            return std::strcmp(l.layerName, kValidationLayer) == 0;
        });
        if (!found)
            fail("validation was requested but VK_LAYER_KHRONOS_validation is not installed: "
                 "apt-get install vulkan-validationlayers, or unset ISOSCOPE_VALIDATION");
        layers.push_back(kValidationLayer);
        extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    }

    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "isoscope";
    app.pEngineName = "isoscope";
    app.apiVersion = VK_API_VERSION_1_3;

    VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    features.enabledValidationFeatureCount = 1;
    features.pEnabledValidationFeatures = enables;

    VkDebugUtilsMessengerCreateInfoEXT messengerInfo{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    messengerInfo.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messengerInfo.messageType =
        VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messengerInfo.pfnUserCallback = debugCallback;
    messengerInfo.pUserData = this;
    features.pNext = &messengerInfo; // also reports problems of vkCreateInstance itself

    VkInstanceCreateInfo createInfo{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    createInfo.pNext = validation ? &features : nullptr;
    createInfo.pApplicationInfo = &app;
    createInfo.enabledLayerCount = uint32_t(layers.size());
    createInfo.ppEnabledLayerNames = layers.data();
    createInfo.enabledExtensionCount = uint32_t(extensions.size());
    createInfo.ppEnabledExtensionNames = extensions.data();
    VkResult result = vkCreateInstance(&createInfo, nullptr, &instance_);
    if (result == VK_ERROR_INCOMPATIBLE_DRIVER)
        fail("no Vulkan 1.3 driver found: install one (mesa-vulkan-drivers gives the lavapipe CPU device)");
    VK_CHECK(result);
    volkLoadInstanceOnly(instance_);

    if (validation)
        VK_CHECK(vkCreateDebugUtilsMessengerEXT(instance_, &messengerInfo, nullptr, &messenger_));
}

void Context::chooseDevice(const std::string& selector)
{
    std::vector<VkPhysicalDevice> physicals = enumerateAll<VkPhysicalDevice>(
        [&](uint32_t* count, auto* items) { VK_CHECK(vkEnumeratePhysicalDevices(instance_, count, items)); });
    uint32_t count = uint32_t(physicals.size());
    if (count == 0)
        fail("no Vulkan device found: install a GPU driver, or mesa-vulkan-drivers for the lavapipe CPU device");

    for (uint32_t i = 0; i < count; ++i) {
        VkPhysicalDeviceProperties properties;
        vkGetPhysicalDeviceProperties(physicals[i], &properties);
        PhysicalDeviceSummary summary;
        summary.index = i;
        summary.name = properties.deviceName;
        summary.type = deviceTypeName(properties.deviceType);
        summary.apiVersion = properties.apiVersion;
        summary.whyNot = missingRequirement(physicals[i], properties);
        summary.usable = summary.whyNot.empty();
        devices_.push_back(summary);
    }

    int chosen = -1;
    if (!selector.empty()) {
        bool numeric = std::all_of(selector.begin(), selector.end(), [](unsigned char c) { return std::isdigit(c); });
        for (const PhysicalDeviceSummary& d : devices_) {
            bool match = numeric ? std::to_string(d.index) == selector
                                 : lowercase(d.name).find(lowercase(selector)) != std::string::npos;
            if (!match)
                continue;
            if (!d.usable)
                fail("device " + std::to_string(d.index) + " (" + d.name + ") chosen by ISOSCOPE_DEVICE=" + selector +
                     " " + d.whyNot + ": choose another (isoscope info lists them)");
            chosen = int(d.index);
            break;
        }
        if (chosen < 0)
            fail("no Vulkan device matches ISOSCOPE_DEVICE=" + selector +
                 ": give an index or a part of a name as `isoscope info` lists them");
    } else {
        for (const PhysicalDeviceSummary& d : devices_)
            if (d.usable && (chosen < 0 || typeRank(d.type) < typeRank(devices_[size_t(chosen)].type)))
                chosen = int(d.index);
        if (chosen < 0) {
            std::string reasons;
            for (const PhysicalDeviceSummary& d : devices_)
                reasons += "; " + d.name + " " + d.whyNot;
            fail("no usable Vulkan device" + reasons + ": update the driver");
        }
    }
    chosenIndex_ = uint32_t(chosen);
    physical_ = physicals[size_t(chosen)];
    queueFamily_ = findQueueFamily(physical_);
}

void Context::createDevice()
{
    DeviceFeatureChain chain(physical_, options_.capturePipelineStatistics);
    capturePipelineStatistics_ = chain.pipelineStatistics;

    float priorities[2] = {1.0f, 1.0f};
    VkDeviceQueueCreateInfo queueInfos[2]{{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO},
                                          {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO}};
    queueInfos[0].queueFamilyIndex = queueFamily_;
    queueInfos[0].queueCount = 1;
    queueInfos[0].pQueuePriorities = priorities;
    // A dedicated transfer family: up to two of its queues (the second
    // only measures the two-queue copy ceiling).
    const char* transferEnv = std::getenv("ISOSCOPE_TRANSFER_QUEUE");
    bool wantTransfer = options_.transferQueue && !(transferEnv && std::strcmp(transferEnv, "0") == 0);
    uint32_t transferFamily = wantTransfer ? findDedicatedTransferFamily(physical_) : UINT32_MAX;
    uint32_t transferCount = 0;
    if (transferFamily != UINT32_MAX) {
        std::vector<VkQueueFamilyProperties> families = enumerateAll<VkQueueFamilyProperties>(
            [&](uint32_t* count, auto* items) { vkGetPhysicalDeviceQueueFamilyProperties(physical_, count, items); });
        transferCount = std::min<uint32_t>(2, families[transferFamily].queueCount);
        transferTimestampBits_ = families[transferFamily].timestampValidBits;
        queueInfos[1].queueFamilyIndex = transferFamily;
        queueInfos[1].queueCount = transferCount;
        queueInfos[1].pQueuePriorities = priorities;
    }

    VkDeviceCreateInfo createInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &chain.features};
    createInfo.queueCreateInfoCount = transferCount ? 2 : 1;
    createInfo.pQueueCreateInfos = queueInfos;
    createInfo.enabledExtensionCount = uint32_t(chain.extensions.size());
    createInfo.ppEnabledExtensionNames = chain.extensions.data();
    VK_CHECK(vkCreateDevice(physical_, &createInfo, nullptr, &device_));
    volkLoadDevice(device_);
    vkGetDeviceQueue(device_, queueFamily_, 0, &queue_);
    transferFamily_ = transferCount ? transferFamily : queueFamily_;
    for (uint32_t i = 0; i < transferCount; ++i) {
        VkQueue queue = VK_NULL_HANDLE;
        vkGetDeviceQueue(device_, transferFamily, i, &queue);
        transferQueues_.push_back(queue);
    }

    info_ = queryDeviceInfo(physical_, queueFamily_, chain.memoryBudget);
    info_.features = chain.enabled();
    createDeviceObjects();
}

void Context::createDeviceObjects()
{
    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT | VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    poolInfo.queueFamilyIndex = queueFamily_;
    VK_CHECK(vkCreateCommandPool(device_, &poolInfo, nullptr, &commandPool_));
    VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VK_CHECK(vkCreateFence(device_, &fenceInfo, nullptr, &fence_));

    allocator_ = std::make_unique<Allocator>(physical_, device_, info_);
    pipelineCache_ = std::make_unique<PipelineCache>(
        device_, info_, options_.pipelineCacheOnDisk ? defaultPipelineCacheFolder() : std::filesystem::path());
}

void Context::submitAndWait(const std::function<void(VkCommandBuffer)>& record)
{
    std::lock_guard submitting(submitMutex_);
    VkCommandBufferAllocateInfo allocateInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    allocateInfo.commandPool = commandPool_;
    allocateInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocateInfo.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VK_CHECK(vkAllocateCommandBuffers(device_, &allocateInfo, &cmd));
    struct FreeOnExit {
        VkDevice device;
        VkCommandPool pool;
        VkCommandBuffer cmd;
        ~FreeOnExit() { vkFreeCommandBuffers(device, pool, 1, &cmd); }
    } freeOnExit{device_, commandPool_, cmd};

    VkCommandBufferBeginInfo beginInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    beginInfo.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VK_CHECK(vkBeginCommandBuffer(cmd, &beginInfo));
    record(cmd);
    VK_CHECK(vkEndCommandBuffer(cmd));

    VkCommandBufferSubmitInfo cmdInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
    cmdInfo.commandBuffer = cmd;
    VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    submit.commandBufferInfoCount = 1;
    submit.pCommandBufferInfos = &cmdInfo;
    submitToQueue(queue_, *queueMutex_, submit, fence_);
    waitForFenceAndReset(device_, fence_);
}

} // namespace isoscope
