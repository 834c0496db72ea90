#pragma once
// A graphics pipeline for dynamic rendering (Vulkan 1.3, no render pass
// objects), with its layouts taken from the SPIR-V as ComputeProgram's are:
// the descriptor bindings of both stages (push descriptors) and one push
// constant range the size of the larger block, visible to both stages.
// Viewport and scissor are dynamic, so one pipeline serves every image size.
#include <initializer_list>
#include <string>
#include <vector>

#include <volk.h>

#include "core/shader.h"

namespace isoscope {

class Context;

struct VertexLayout {
    uint32_t stride = 0; // one interleaved vertex buffer at binding 0
    std::vector<VkVertexInputAttributeDescription> attributes;
};

struct GraphicsState {
    VkFormat colorFormat = VK_FORMAT_R8G8B8A8_UNORM;
    VkFormat depthFormat = VK_FORMAT_UNDEFINED; // UNDEFINED: no depth test
    VertexLayout vertices;
    VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkCullModeFlags cullMode = VK_CULL_MODE_NONE;
};

class GraphicsProgram {
public:
    GraphicsProgram(Context& context, const Shader& vertex, const Shader& fragment, const GraphicsState& state);
    ~GraphicsProgram();
    GraphicsProgram(const GraphicsProgram&) = delete;
    GraphicsProgram& operator=(const GraphicsProgram&) = delete;

    // Binds the pipeline, sets viewport and scissor to `extent`, pushes one
    // descriptor per binding (in binding order) and the push constants
    // (their size must match the shaders').
    void bind(VkCommandBuffer cmd, VkExtent2D extent, std::initializer_list<DescriptorInfo> descriptors,
              const void* pushConstants = nullptr, uint32_t pushConstantBytes = 0) const;

private:
    void createLayouts();
    void createPipeline(const Shader& vertex, const Shader& fragment, const GraphicsState& state);
    void destroy() noexcept;

    Context& context_;
    std::string name_;
    std::vector<VkDescriptorSetLayoutBinding> bindings_;
    uint32_t pushConstantSize_ = 0;
    VkDescriptorSetLayout setLayout_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    VkDescriptorUpdateTemplate updateTemplate_ = VK_NULL_HANDLE;
    VkPipeline pipeline_ = VK_NULL_HANDLE;
};

} // namespace isoscope
