#pragma once
// Dear ImGui (Debian's libimgui-dev: the GLFW and Vulkan backends in its
// static library) drawn over isoscope's frame, in a render pass of the
// viewer's own on each slot's colour image. ImGui's Vulkan backend calls
// the loader's prototypes; isoscope's library hides its volk, so both live
// in one process.
#include <vector>

#include <vulkan/vulkan_core.h>

#include "frame_slots.h"
#include "host_device.h"
#include "window.h"

namespace viewer {

class ImGuiLayer {
public:
    ImGuiLayer(samplehost::HostDevice& host, samplehost::Window& window, samplehost::FrameSlots& slots);
    ImGuiLayer(const ImGuiLayer&) = delete;
    ImGuiLayer& operator=(const ImGuiLayer&) = delete;
    ~ImGuiLayer(); // waits for the device

    void newFrame(); // before the panels' ImGui calls
    // Ends ImGui's frame and draws it onto the slot's colour, which is in
    // COLOR_ATTACHMENT_OPTIMAL (written by isoscope) and ends in TRANSFER_SRC_OPTIMAL.
    void record(VkCommandBuffer cmd, uint64_t frame);
    // The slots' colour images were made again (the caller has waited for the device).
    void resize();

private:
    void createFramebuffers();
    void destroyFramebuffers();

    samplehost::HostDevice& host_;
    samplehost::FrameSlots& slots_;
    VkRenderPass renderPass_ = VK_NULL_HANDLE;
    VkDescriptorPool descriptorPool_ = VK_NULL_HANDLE;
    std::vector<VkFramebuffer> framebuffers_; // one per slot
};

} // namespace viewer
