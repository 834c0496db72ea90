#include "host_instance.h"

#include <cstdio>
#include <cstring>

#include "check.h"

namespace samplehost {
namespace {

const char* const kValidationLayer = "VK_LAYER_KHRONOS_validation";

VKAPI_ATTR VkBool32 VKAPI_CALL onValidationMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                   VkDebugUtilsMessageTypeFlagsEXT,
                                                   const VkDebugUtilsMessengerCallbackDataEXT* data, void* user)
{
    static_cast<ValidationLog*>(user)->messages++;
    bool error = severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    std::fprintf(stderr, "validation %s: %s\n", error ? "error" : "warning", data->pMessage);
    return VK_FALSE; // the call goes on, as the spec requires of an application's callback
}

VkDebugUtilsMessengerCreateInfoEXT messengerInfo(ValidationLog& log)
{
    VkDebugUtilsMessengerCreateInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    info.pfnUserCallback = onValidationMessage;
    info.pUserData = &log;
    return info;
}

bool hasValidationLayer()
{
    uint32_t count = 0;
    VK_CHECK(vkEnumerateInstanceLayerProperties(&count, nullptr));
    std::vector<VkLayerProperties> layers(count);
    VK_CHECK(vkEnumerateInstanceLayerProperties(&count, layers.data()));
    for (const VkLayerProperties& layer : layers)
        if (std::strcmp(layer.layerName, kValidationLayer) == 0)
            return true;
    return false;
}

void requireLoader13()
{
    uint32_t version = 0;
    VK_CHECK(vkEnumerateInstanceVersion(&version));
    if (version < VK_API_VERSION_1_3)
        throw Failure("the Vulkan loader is " + std::to_string(VK_API_VERSION_MAJOR(version)) + "." +
                      std::to_string(VK_API_VERSION_MINOR(version)) + "; isoscope needs Vulkan 1.3 (update libvulkan1)");
}

} // namespace

HostInstance::~HostInstance()
{
    if (messenger) {
        auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
        destroy(instance, messenger, nullptr);
    }
    if (instance)
        vkDestroyInstance(instance, nullptr);
}

std::unique_ptr<HostInstance> createHostInstance(const char* applicationName, bool validation,
                                                 std::vector<const char*> extensions, ValidationLog& log)
{
    requireLoader13();
    if (validation && !hasValidationLayer())
        throw Failure(std::string("--validation: ") + kValidationLayer +
                      " is not installed (Debian: vulkan-validationlayers) or not on VK_LAYER_PATH");

    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = applicationName;
    app.apiVersion = VK_API_VERSION_1_3;

    // Chained into the instance's creation so that vkCreateInstance and
    // vkDestroyInstance report too, not only the calls between.
    VkDebugUtilsMessengerCreateInfoEXT messenger = messengerInfo(log);
    VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    features.pNext = &messenger;
    features.enabledValidationFeatureCount = 1;
    features.pEnabledValidationFeatures = enables;
    if (validation) {
        extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
        extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
    }

    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.pNext = validation ? &features : nullptr;
    info.pApplicationInfo = &app;
    info.enabledLayerCount = validation ? 1 : 0;
    info.ppEnabledLayerNames = &kValidationLayer;
    info.enabledExtensionCount = uint32_t(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();

    auto host = std::make_unique<HostInstance>();
    VK_CHECK(vkCreateInstance(&info, nullptr, &host->instance));
    if (validation) {
        auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(host->instance, "vkCreateDebugUtilsMessengerEXT"));
        VK_CHECK(create(host->instance, &messenger, nullptr, &host->messenger));
    }
    return host;
}

} // namespace samplehost
