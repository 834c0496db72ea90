#pragma once
// The host's own scene: a lit ground quad and lit cubes, drawn with its own
// graphics pipelines (dynamic rendering, no vertex buffers) into its own
// colour and depth targets, through isoscope's view-projection.
#include <memory>

#include <vulkan/vulkan_core.h>

#include "scene_layout.h"

namespace embed {

struct HostScene {
    VkDevice device = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline ground = VK_NULL_HANDLE;
    VkPipeline boxes = VK_NULL_HANDLE;

    HostScene() = default;
    HostScene(const HostScene&) = delete;
    HostScene& operator=(const HostScene&) = delete;
    ~HostScene();
};

std::unique_ptr<HostScene> createHostScene(VkDevice device);

// Records the draws; the caller has begun rendering into targets of
// kColorFormat and kDepthFormat and set the viewport and scissor.
void drawHostScene(VkCommandBuffer cmd, const HostScene& scene, const SceneView& view);

} // namespace embed
