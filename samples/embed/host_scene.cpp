#include "host_scene.h"

#include <cstdint>
#include <cstring>

#include "check.h"
#include "frame_slots.h"
#include "spv_box_vert.h"
#include "spv_lit_frag.h"
#include "spv_plane_vert.h"

namespace embed {
using namespace samplehost; // the host code shared with the viewer (samples/common)
namespace {

// Mirrors shaders/scene_push.glsl (std430: vec4s and a column-major mat4).
struct ScenePush {
    float viewProjection[16];
    float center[4];
    float halfSize[4];
    float color[4];
    float toLight[4];
};
static_assert(sizeof(ScenePush) == 128, "scene_push.glsl is 128 bytes");

// Only needed until the pipelines are made.
struct ShaderModule {
    VkDevice device = VK_NULL_HANDLE;
    VkShaderModule module = VK_NULL_HANDLE;
    ~ShaderModule() { vkDestroyShaderModule(device, module, nullptr); }
};

VkShaderModule createShaderModule(VkDevice device, const uint32_t* code, size_t bytes)
{
    VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    info.codeSize = bytes;
    info.pCode = code;
    VkShaderModule module = VK_NULL_HANDLE;
    VK_CHECK(vkCreateShaderModule(device, &info, nullptr, &module));
    return module;
}

VkPipeline createLitPipeline(VkDevice device, VkPipelineLayout layout, VkShaderModule vertex, VkShaderModule fragment)
{
    VkPipelineShaderStageCreateInfo stages[2] = {{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO},
                                                 {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO}};
    stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
    stages[0].module = vertex;
    stages[0].pName = "main";
    stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
    stages[1].module = fragment;
    stages[1].pName = "main";

    VkPipelineVertexInputStateCreateInfo vertexInput{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    viewport.viewportCount = 1;
    viewport.scissorCount = 1;
    VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    raster.polygonMode = VK_POLYGON_MODE_FILL;
    raster.cullMode = VK_CULL_MODE_NONE; // the shaders' winding is not kept consistent; depth hides back faces
    raster.lineWidth = 1.0f;
    VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineDepthStencilStateCreateInfo depth{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
    depth.depthTestEnable = VK_TRUE;
    depth.depthWriteEnable = VK_TRUE;
    depth.depthCompareOp = VK_COMPARE_OP_LESS; // isoscope's projection: 0 near, 1 far
    VkPipelineColorBlendAttachmentState blendAttachment{};
    blendAttachment.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                                     VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
    VkPipelineColorBlendStateCreateInfo blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    blend.attachmentCount = 1;
    blend.pAttachments = &blendAttachment;
    VkDynamicState dynamicStates[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
    dynamic.dynamicStateCount = 2;
    dynamic.pDynamicStates = dynamicStates;

    VkFormat colorFormat = kColorFormat;
    VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
    rendering.colorAttachmentCount = 1;
    rendering.pColorAttachmentFormats = &colorFormat;
    rendering.depthAttachmentFormat = kDepthFormat;

    VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
    info.pNext = &rendering;
    info.stageCount = 2;
    info.pStages = stages;
    info.pVertexInputState = &vertexInput;
    info.pInputAssemblyState = &assembly;
    info.pViewportState = &viewport;
    info.pRasterizationState = &raster;
    info.pMultisampleState = &multisample;
    info.pDepthStencilState = &depth;
    info.pColorBlendState = &blend;
    info.pDynamicState = &dynamic;
    info.layout = layout;
    VkPipeline pipeline = VK_NULL_HANDLE;
    VK_CHECK(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline));
    return pipeline;
}

void pushBox(VkCommandBuffer cmd, VkPipelineLayout layout, const SceneView& view, const Box& box)
{
    ScenePush push{};
    std::memcpy(push.viewProjection, view.viewProjection.data(), sizeof(push.viewProjection));
    for (int i = 0; i < 3; ++i) {
        push.center[i] = box.center[i];
        push.halfSize[i] = box.halfSize[i];
        push.color[i] = box.color[i];
        push.toLight[i] = view.toLight[i];
    }
    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(push), &push);
}

} // namespace

HostScene::~HostScene()
{
    if (!device)
        return;
    vkDestroyPipeline(device, ground, nullptr);
    vkDestroyPipeline(device, boxes, nullptr);
    vkDestroyPipelineLayout(device, layout, nullptr);
}

std::unique_ptr<HostScene> createHostScene(VkDevice device)
{
    auto scene = std::make_unique<HostScene>();
    scene->device = device;

    VkPushConstantRange range{VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(ScenePush)};
    VkPipelineLayoutCreateInfo layout{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layout.pushConstantRangeCount = 1;
    layout.pPushConstantRanges = &range;
    VK_CHECK(vkCreatePipelineLayout(device, &layout, nullptr, &scene->layout));

    ShaderModule box{device, createShaderModule(device, spv_box_vert, sizeof(spv_box_vert))};
    ShaderModule plane{device, createShaderModule(device, spv_plane_vert, sizeof(spv_plane_vert))};
    ShaderModule lit{device, createShaderModule(device, spv_lit_frag, sizeof(spv_lit_frag))};
    scene->ground = createLitPipeline(device, scene->layout, plane.module, lit.module);
    scene->boxes = createLitPipeline(device, scene->layout, box.module, lit.module);
    return scene;
}

void drawHostScene(VkCommandBuffer cmd, const HostScene& scene, const SceneView& view)
{
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, scene.ground);
    pushBox(cmd, scene.layout, view, view.ground);
    vkCmdDraw(cmd, 6, 1, 0, 0);

    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, scene.boxes);
    for (const Box& box : view.cubes) {
        pushBox(cmd, scene.layout, view, box);
        vkCmdDraw(cmd, 36, 1, 0, 0);
    }
}

} // namespace embed
