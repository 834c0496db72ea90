#include "raycast/scene_depth.h"

#include "core/context.h"
#include "core/vk_check.h"

namespace isoscope {

namespace {
constexpr VkFormat kDepthFormat = VK_FORMAT_R32_SFLOAT; // as the raycasters' depth targets
}

SceneDepthInput::SceneDepthInput(Context& context) : context_(context)
{
    farDepth_ = context.allocator().createImage(VK_IMAGE_TYPE_2D, {1, 1, 1}, kDepthFormat,
                                                VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                                "raycast far-depth placeholder");
    VkSamplerCreateInfo samplerInfo{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    samplerInfo.magFilter = samplerInfo.minFilter = VK_FILTER_NEAREST;
    samplerInfo.addressModeU = samplerInfo.addressModeV = samplerInfo.addressModeW =
        VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    VK_CHECK(vkCreateSampler(context.device(), &samplerInfo, nullptr, &nearestSampler_));
    try {
        // The far-depth image never changes: cleared once.
        RenderGraph setup(context);
        ResourceId farDepth = setup.importImage("raycast far depth", graphImage(farDepth_), {},
                                                ResourceState{VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                                                              VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
                                                              VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL});
        setup.addPass("clear far depth", PassKind::Transfer, {{farDepth, Use::TransferDst}},
                      [farDepth](VkCommandBuffer cmd, const RenderGraph& g) {
                          VkClearColorValue one{};
                          one.float32[0] = 1.0f;
                          VkImageSubresourceRange all{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
                          vkCmdClearColorImage(cmd, g.image(farDepth).image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                               &one, 1, &all);
                      });
        setup.compile();
        setup.execute();
    } catch (...) {
        // A destructor does not run for a constructor that throws.
        vkDestroySampler(context.device(), nearestSampler_, nullptr);
        throw;
    }
}

SceneDepthInput::~SceneDepthInput() { vkDestroySampler(context_.device(), nearestSampler_, nullptr); }

ResourceId SceneDepthInput::resolve(RenderGraph& graph, ResourceId sceneDepth, const std::string& name) const
{
    if (sceneDepth != kNoResource)
        return sceneDepth;
    return graph.importImage(name, graphImage(farDepth_),
                             {VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL});
}

} // namespace isoscope
