#pragma once
// The GLFW window and its swapchain. The swapchain's images only receive a
// blit of the host's offscreen colour, so they need transfer-dst usage and
// nothing else; one "render done" semaphore per image, because the present
// that waits on it may still hold it when the slot comes round again.
#include <memory>
#include <vector>

#include <vulkan/vulkan_core.h>

struct GLFWwindow;

namespace samplehost {

// glfwInit, which fails where no display exists: then the run is headless.
struct Display {
    bool open = false;
    Display();
    Display(const Display&) = delete;
    Display& operator=(const Display&) = delete;
    ~Display();
};

std::vector<const char*> windowInstanceExtensions();

struct Window {
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    GLFWwindow* glfw = nullptr;
    VkSurfaceKHR surface = VK_NULL_HANDLE;
    VkSwapchainKHR swapchain = VK_NULL_HANDLE;
    VkExtent2D extent{};
    std::vector<VkImage> images;
    std::vector<VkSemaphore> renderDone; // one per image
    bool vsync = true; // false: MAILBOX or IMMEDIATE where the surface has one, at the next recreateSwapchain

    Window() = default;
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;
    ~Window(); // the caller has waited for the device

    bool shouldClose() const;
    void pollEvents() const;
    // The framebuffer's size now; waits (handling events) while it is 0 (minimised).
    VkExtent2D framebufferExtent() const;
    // Makes the swapchain again for the framebuffer's size; the caller has waited for the device.
    void recreateSwapchain();
};

// Fails when the queue isoscope and the host share cannot present to it.
std::unique_ptr<Window> createWindow(VkInstance instance, VkPhysicalDevice physical, VkDevice device, uint32_t family,
                                     VkExtent2D size, const char* title);

} // namespace samplehost
