#include "imgui_layer.h"

#include <algorithm>

#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_vulkan.h>

#include "check.h"

namespace viewer {
namespace {

void checkImGuiResult(VkResult result) { VK_CHECK(result); }

// Colour loaded as isoscope left it, drawn over, then ready for the blit or the read-back.
VkRenderPass createOverlayPass(VkDevice device)
{
    VkAttachmentDescription color{};
    color.format = samplehost::kColorFormat;
    color.samples = VK_SAMPLE_COUNT_1_BIT;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    color.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    color.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    color.initialLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    VkAttachmentReference reference{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription subpass{};
    subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpass.colorAttachmentCount = 1;
    subpass.pColorAttachments = &reference;
    // In: isoscope's last write (its colour "after" state, a colour attachment
    // write). Out: the blit to the swapchain and the screenshot's copy.
    VkSubpassDependency dependencies[2]{};
    dependencies[0].srcSubpass = VK_SUBPASS_EXTERNAL;
    dependencies[0].dstSubpass = 0;
    dependencies[0].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    dependencies[0].dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    dependencies[0].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    dependencies[0].dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    dependencies[1].srcSubpass = 0;
    dependencies[1].dstSubpass = VK_SUBPASS_EXTERNAL;
    dependencies[1].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    dependencies[1].dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
    dependencies[1].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    dependencies[1].dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;

    VkRenderPassCreateInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
    info.attachmentCount = 1;
    info.pAttachments = &color;
    info.subpassCount = 1;
    info.pSubpasses = &subpass;
    info.dependencyCount = 2;
    info.pDependencies = dependencies;
    VkRenderPass pass = VK_NULL_HANDLE;
    VK_CHECK(vkCreateRenderPass(device, &info, nullptr, &pass));
    return pass;
}

// ImGui needs one combined image sampler: its font atlas.
VkDescriptorPool createDescriptorPool(VkDevice device)
{
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1};
    VkDescriptorPoolCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    info.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
    info.maxSets = 1;
    info.poolSizeCount = 1;
    info.pPoolSizes = &size;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    VK_CHECK(vkCreateDescriptorPool(device, &info, nullptr, &pool));
    return pool;
}

// The font atlas's upload, on slot 0's command buffer before any frame uses it.
void uploadFonts(samplehost::HostDevice& host, samplehost::FrameSlots& slots)
{
    samplehost::FrameSlot& slot = slots[0];
    slots.waitForSlot(0);
    VK_CHECK(vkResetCommandPool(host.device, slot.pool, 0));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VK_CHECK(vkBeginCommandBuffer(slot.cmd, &begin));
    if (!ImGui_ImplVulkan_CreateFontsTexture(slot.cmd))
        throw samplehost::Failure("Dear ImGui could not create its font texture");
    VK_CHECK(vkEndCommandBuffer(slot.cmd));
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &slot.cmd;
    VK_CHECK(vkQueueSubmit(host.queue, 1, &submit, VK_NULL_HANDLE));
    VK_CHECK(vkQueueWaitIdle(host.queue));
    ImGui_ImplVulkan_DestroyFontUploadObjects();
}

} // namespace

ImGuiLayer::ImGuiLayer(samplehost::HostDevice& host, samplehost::Window& window, samplehost::FrameSlots& slots)
    : host_(host), slots_(slots)
{
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr; // no imgui.ini beside the volume or in the tests' folders
    ImGui::StyleColorsDark();
    renderPass_ = createOverlayPass(host.device);
    descriptorPool_ = createDescriptorPool(host.device);
    if (!ImGui_ImplGlfw_InitForVulkan(window.glfw, true))
        throw samplehost::Failure("Dear ImGui's GLFW backend did not start");

    ImGui_ImplVulkan_InitInfo info{};
    info.Instance = host.instance;
    info.PhysicalDevice = host.physical;
    info.Device = host.device;
    info.QueueFamily = host.family;
    info.Queue = host.queue;
    info.DescriptorPool = descriptorPool_;
    // ImGui rotates its vertex buffers over ImageCount frames: one per slot
    // is enough, since a slot's fence is waited before it records again.
    info.MinImageCount = 2;
    info.ImageCount = uint32_t(std::max<size_t>(slots.slots.size(), 2));
    info.MSAASamples = VK_SAMPLE_COUNT_1_BIT;
    info.CheckVkResultFn = checkImGuiResult;
    if (!ImGui_ImplVulkan_Init(&info, renderPass_))
        throw samplehost::Failure("Dear ImGui's Vulkan backend did not start");
    uploadFonts(host, slots);
    createFramebuffers();
}

ImGuiLayer::~ImGuiLayer()
{
    vkDeviceWaitIdle(host_.device); // also on the way out of an exception; nothing to report then
    ImGui_ImplVulkan_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    destroyFramebuffers();
    vkDestroyDescriptorPool(host_.device, descriptorPool_, nullptr);
    vkDestroyRenderPass(host_.device, renderPass_, nullptr);
}

void ImGuiLayer::newFrame()
{
    ImGui_ImplVulkan_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
}

void ImGuiLayer::record(VkCommandBuffer cmd, uint64_t frame)
{
    ImGui::Render();
    VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    begin.renderPass = renderPass_;
    begin.framebuffer = framebuffers_[frame % framebuffers_.size()];
    begin.renderArea = {{0, 0}, slots_.extent};
    vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
    ImGui_ImplVulkan_RenderDrawData(ImGui::GetDrawData(), cmd);
    vkCmdEndRenderPass(cmd);
}

void ImGuiLayer::resize()
{
    destroyFramebuffers();
    createFramebuffers();
}

void ImGuiLayer::createFramebuffers()
{
    for (const samplehost::FrameSlot& slot : slots_.slots) {
        VkFramebufferCreateInfo info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
        info.renderPass = renderPass_;
        info.attachmentCount = 1;
        info.pAttachments = &slot.color.view;
        info.width = slots_.extent.width;
        info.height = slots_.extent.height;
        info.layers = 1;
        VK_CHECK(vkCreateFramebuffer(host_.device, &info, nullptr, &framebuffers_.emplace_back()));
    }
}

void ImGuiLayer::destroyFramebuffers()
{
    for (VkFramebuffer framebuffer : framebuffers_)
        vkDestroyFramebuffer(host_.device, framebuffer, nullptr);
    framebuffers_.clear();
}

} // namespace viewer
