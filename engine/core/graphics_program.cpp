#include "core/graphics_program.h"

#include <algorithm>

#include "core/context.h"
#include "core/descriptor_limits.h"
#include "core/vk_check.h"

namespace isoscope {

namespace {

constexpr VkShaderStageFlags kStages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;

} // namespace

GraphicsProgram::GraphicsProgram(Context& context, const Shader& vertex, const Shader& fragment,
                                 const GraphicsState& state)
    : context_(context), name_(vertex.name + "+" + fragment.name)
{
    if (vertex.stage != VK_SHADER_STAGE_VERTEX_BIT || fragment.stage != VK_SHADER_STAGE_FRAGMENT_BIT)
        fail("graphics program " + name_ + " needs a vertex shader and a fragment shader (engine bug)");
    if (!context.info().features.dynamicRendering)
        fail(context.info().name + " lacks dynamic rendering (Vulkan 1.3): update the driver to draw meshes");
    // Both stages see every binding: a binding used by one stage only costs nothing.
    for (const Shader* shader : {&vertex, &fragment})
        for (const ShaderBinding& binding : shader->bindings) {
            auto it = std::find_if(bindings_.begin(), bindings_.end(),
                                   [&](const VkDescriptorSetLayoutBinding& b) { return b.binding == binding.binding; });
            if (it == bindings_.end())
                bindings_.push_back({binding.binding, binding.type, 1, kStages, nullptr});
            else if (it->descriptorType != binding.type)
                fail("graphics program " + name_ + ": binding " + std::to_string(binding.binding) +
                     " has different types in the two stages (engine bug)");
        }
    std::sort(bindings_.begin(), bindings_.end(),
              [](const VkDescriptorSetLayoutBinding& a, const VkDescriptorSetLayoutBinding& b) {
                  return a.binding < b.binding;
              });
    pushConstantSize_ = std::max(vertex.pushConstantSize, fragment.pushConstantSize);
    // Both stages see every binding, so one count serves both; the fragment
    // stage's one color attachment is also one of its resources.
    std::vector<VkDescriptorType> types;
    for (const VkDescriptorSetLayoutBinding& binding : bindings_)
        types.push_back(binding.descriptorType);
    if (std::string problem = descriptorLimitsProblem("graphics program " + name_, types, context.info(), 1);
        !problem.empty())
        fail(problem);
    try {
        createLayouts();
        createPipeline(vertex, fragment, state);
    } catch (...) {
        destroy(); // a destructor does not run for a constructor that throws
        throw;
    }
}

GraphicsProgram::~GraphicsProgram() { destroy(); }

void GraphicsProgram::destroy() noexcept
{
    destroyProgram(context_.device(), pipeline_, updateTemplate_, layout_, setLayout_);
}

void GraphicsProgram::createLayouts()
{
    createProgramLayout(context_.device(), bindings_, kStages, pushConstantSize_, VK_PIPELINE_BIND_POINT_GRAPHICS,
                        setLayout_, layout_, updateTemplate_);
}

void GraphicsProgram::createPipeline(const Shader& vertex, const Shader& fragment, const GraphicsState& state)
{
    VkDevice device = context_.device();
    VkPipelineShaderStageCreateInfo stages[2]{};
    const Shader* shaders[2] = {&vertex, &fragment};
    for (int i = 0; i < 2; ++i) {
        stages[i].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
        stages[i].stage = shaders[i]->stage;
        stages[i].pName = "main";
        VkShaderModuleCreateInfo moduleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
        moduleInfo.codeSize = shaders[i]->spirv.size_bytes();
        moduleInfo.pCode = shaders[i]->spirv.data();
        VkResult result = vkCreateShaderModule(device, &moduleInfo, nullptr, &stages[i].module);
        if (result != VK_SUCCESS && i == 1)
            vkDestroyShaderModule(device, stages[0].module, nullptr);
        VK_CHECK(result);
    }

    VkVertexInputBindingDescription binding{0, state.vertices.stride, VK_VERTEX_INPUT_RATE_VERTEX};
    VkPipelineVertexInputStateCreateInfo vertexInput{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    vertexInput.vertexBindingDescriptionCount = state.vertices.stride ? 1 : 0;
    vertexInput.pVertexBindingDescriptions = &binding;
    vertexInput.vertexAttributeDescriptionCount = uint32_t(state.vertices.attributes.size());
    vertexInput.pVertexAttributeDescriptions = state.vertices.attributes.data();
    VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    assembly.topology = state.topology;
    VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    viewport.viewportCount = 1;
    viewport.scissorCount = 1;
    VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    raster.polygonMode = VK_POLYGON_MODE_FILL;
    raster.cullMode = state.cullMode;
    raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
    raster.lineWidth = 1.0f;
    VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineDepthStencilStateCreateInfo depth{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
    depth.depthTestEnable = state.depthFormat != VK_FORMAT_UNDEFINED;
    depth.depthWriteEnable = depth.depthTestEnable;
    depth.depthCompareOp = VK_COMPARE_OP_LESS;
    VkPipelineColorBlendAttachmentState attachment{};
    attachment.colorWriteMask =
        VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
    VkPipelineColorBlendStateCreateInfo blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    blend.attachmentCount = 1;
    blend.pAttachments = &attachment;
    VkDynamicState dynamicStates[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
    dynamic.dynamicStateCount = 2;
    dynamic.pDynamicStates = dynamicStates;

    VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
    rendering.colorAttachmentCount = 1;
    rendering.pColorAttachmentFormats = &state.colorFormat;
    rendering.depthAttachmentFormat = state.depthFormat;

    VkGraphicsPipelineCreateInfo pipelineInfo{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
    pipelineInfo.stageCount = 2;
    pipelineInfo.pStages = stages;
    pipelineInfo.pVertexInputState = &vertexInput;
    pipelineInfo.pInputAssemblyState = &assembly;
    pipelineInfo.pViewportState = &viewport;
    pipelineInfo.pRasterizationState = &raster;
    pipelineInfo.pMultisampleState = &multisample;
    pipelineInfo.pDepthStencilState = &depth;
    pipelineInfo.pColorBlendState = &blend;
    pipelineInfo.pDynamicState = &dynamic;
    pipelineInfo.layout = layout_;
    VkResult result =
        vkCreateGraphicsPipelines(device, context_.pipelineCache(), 1, &pipelineInfo, nullptr, &pipeline_);
    vkDestroyShaderModule(device, stages[0].module, nullptr);
    vkDestroyShaderModule(device, stages[1].module, nullptr);
    VK_CHECK(result);
}

void GraphicsProgram::bind(VkCommandBuffer cmd, VkExtent2D extent, std::initializer_list<DescriptorInfo> descriptors,
                           const void* pushConstants, uint32_t pushConstantBytes) const
{
    if (descriptors.size() != bindings_.size())
        fail("graphics program " + name_ + " has " + std::to_string(bindings_.size()) + " bindings but " +
             std::to_string(descriptors.size()) + " descriptors were given (engine bug)");
    if (pushConstantBytes != pushConstantSize_)
        fail("graphics program " + name_ + " takes " + std::to_string(pushConstantSize_) +
             " bytes of push constants, not " + std::to_string(pushConstantBytes) + " (engine bug)");
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_);
    VkViewport viewport{0.0f, 0.0f, float(extent.width), float(extent.height), 0.0f, 1.0f};
    VkRect2D scissor{{0, 0}, extent};
    vkCmdSetViewport(cmd, 0, 1, &viewport);
    vkCmdSetScissor(cmd, 0, 1, &scissor);
    if (updateTemplate_)
        vkCmdPushDescriptorSetWithTemplateKHR(cmd, updateTemplate_, layout_, 0, descriptors.begin());
    if (pushConstantSize_)
        vkCmdPushConstants(cmd, layout_, kStages, 0, pushConstantSize_, pushConstants);
}

} // namespace isoscope
