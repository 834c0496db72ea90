#include "window.h"

#include <algorithm>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "check.h"

namespace samplehost {
namespace {

VkSurfaceFormatKHR pickFormat(VkPhysicalDevice physical, VkSurfaceKHR surface)
{
    uint32_t count = 0;
    VK_CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(physical, surface, &count, nullptr));
    std::vector<VkSurfaceFormatKHR> formats(count);
    VK_CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(physical, surface, &count, formats.data()));
    if (formats.empty())
        throw Failure("the window's surface offers no formats");
    // UNORM like the offscreen colour: the blit copies values, no sRGB encoding on the way.
    for (const VkSurfaceFormatKHR& format : formats)
        if (format.format == VK_FORMAT_B8G8R8A8_UNORM || format.format == VK_FORMAT_R8G8B8A8_UNORM)
            return format;
    return formats[0];
}

VkCompositeAlphaFlagBitsKHR pickCompositeAlpha(VkCompositeAlphaFlagsKHR supported)
{
    for (VkCompositeAlphaFlagBitsKHR mode : {VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR, VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR,
                                             VK_COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR})
        if (supported & mode)
            return mode;
    return VK_COMPOSITE_ALPHA_POST_MULTIPLIED_BIT_KHR;
}

// FIFO is the one mode every surface has; without vsync, the first of the others it offers.
VkPresentModeKHR pickPresentMode(VkPhysicalDevice physical, VkSurfaceKHR surface, bool vsync)
{
    if (vsync)
        return VK_PRESENT_MODE_FIFO_KHR;
    uint32_t count = 0;
    VK_CHECK(vkGetPhysicalDeviceSurfacePresentModesKHR(physical, surface, &count, nullptr));
    std::vector<VkPresentModeKHR> modes(count);
    VK_CHECK(vkGetPhysicalDeviceSurfacePresentModesKHR(physical, surface, &count, modes.data()));
    for (VkPresentModeKHR wanted : {VK_PRESENT_MODE_MAILBOX_KHR, VK_PRESENT_MODE_IMMEDIATE_KHR})
        if (std::find(modes.begin(), modes.end(), wanted) != modes.end())
            return wanted;
    return VK_PRESENT_MODE_FIFO_KHR;
}

} // namespace

Display::Display() { open = glfwInit() == GLFW_TRUE; }

Display::~Display()
{
    if (open)
        glfwTerminate();
}

std::vector<const char*> windowInstanceExtensions()
{
    uint32_t count = 0;
    const char** names = glfwGetRequiredInstanceExtensions(&count);
    if (!names)
        throw Failure("GLFW finds no Vulkan surface support for this display (is libvulkan1 installed?)");
    return {names, names + count};
}

Window::~Window()
{
    for (VkSemaphore semaphore : renderDone)
        vkDestroySemaphore(device, semaphore, nullptr);
    if (swapchain)
        vkDestroySwapchainKHR(device, swapchain, nullptr);
    if (surface)
        vkDestroySurfaceKHR(instance, surface, nullptr);
    if (glfw)
        glfwDestroyWindow(glfw);
}

bool Window::shouldClose() const { return glfwWindowShouldClose(glfw); }

void Window::pollEvents() const { glfwPollEvents(); }

VkExtent2D Window::framebufferExtent() const
{
    int width = 0, height = 0;
    glfwGetFramebufferSize(glfw, &width, &height);
    while ((width == 0 || height == 0) && !glfwWindowShouldClose(glfw)) {
        glfwWaitEvents();
        glfwGetFramebufferSize(glfw, &width, &height);
    }
    return {uint32_t(std::max(width, 1)), uint32_t(std::max(height, 1))};
}

void Window::recreateSwapchain()
{
    VkSurfaceCapabilitiesKHR caps;
    VK_CHECK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physical, surface, &caps));
    if (!(caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT))
        throw Failure("the window's swapchain images cannot be blitted to (no transfer-dst usage)");
    VkSurfaceFormatKHR format = pickFormat(physical, surface);

    extent = caps.currentExtent;
    if (extent.width == UINT32_MAX) { // the surface takes the swapchain's size
        VkExtent2D framebuffer = framebufferExtent();
        extent.width = std::clamp(framebuffer.width, caps.minImageExtent.width, caps.maxImageExtent.width);
        extent.height = std::clamp(framebuffer.height, caps.minImageExtent.height, caps.maxImageExtent.height);
    }
    uint32_t imageCount = caps.minImageCount + 1;
    if (caps.maxImageCount != 0)
        imageCount = std::min(imageCount, caps.maxImageCount);

    VkSwapchainCreateInfoKHR info{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
    info.surface = surface;
    info.minImageCount = imageCount;
    info.imageFormat = format.format;
    info.imageColorSpace = format.colorSpace;
    info.imageExtent = extent;
    info.imageArrayLayers = 1;
    info.imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
    info.preTransform = caps.currentTransform;
    info.compositeAlpha = pickCompositeAlpha(caps.supportedCompositeAlpha);
    info.presentMode = pickPresentMode(physical, surface, vsync);
    info.clipped = VK_TRUE;
    info.oldSwapchain = swapchain;
    VkSwapchainKHR created = VK_NULL_HANDLE;
    VK_CHECK(vkCreateSwapchainKHR(device, &info, nullptr, &created));
    if (swapchain)
        vkDestroySwapchainKHR(device, swapchain, nullptr);
    swapchain = created;

    uint32_t count = 0;
    VK_CHECK(vkGetSwapchainImagesKHR(device, swapchain, &count, nullptr));
    images.resize(count);
    VK_CHECK(vkGetSwapchainImagesKHR(device, swapchain, &count, images.data()));
    for (VkSemaphore semaphore : renderDone)
        vkDestroySemaphore(device, semaphore, nullptr);
    renderDone.assign(count, VK_NULL_HANDLE);
    for (VkSemaphore& semaphore : renderDone) {
        VkSemaphoreCreateInfo semaphoreInfo{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        VK_CHECK(vkCreateSemaphore(device, &semaphoreInfo, nullptr, &semaphore));
    }
}

std::unique_ptr<Window> createWindow(VkInstance instance, VkPhysicalDevice physical, VkDevice device, uint32_t family,
                                     VkExtent2D size, const char* title)
{
    auto window = std::make_unique<Window>();
    window->instance = instance;
    window->physical = physical;
    window->device = device;
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    window->glfw = glfwCreateWindow(int(size.width), int(size.height), title, nullptr, nullptr);
    if (!window->glfw)
        throw Failure("could not open a " + std::to_string(size.width) + "x" + std::to_string(size.height) +
                      " window (try --headless)");
    VK_CHECK(glfwCreateWindowSurface(instance, window->glfw, nullptr, &window->surface));
    VkBool32 supported = VK_FALSE;
    VK_CHECK(vkGetPhysicalDeviceSurfaceSupportKHR(physical, family, window->surface, &supported));
    if (!supported)
        throw Failure("the queue family isoscope uses (" + std::to_string(family) +
                      ") cannot present to the window; pick another device with ISOSCOPE_DEVICE or run --headless");
    window->recreateSwapchain();
    return window;
}

} // namespace samplehost
