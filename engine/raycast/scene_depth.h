#pragma once
// The depth a raycast stops at: the host's depth attachment (what raster
// passes drew before it), or a 1×1 image of depth 1 when there is none, so
// that the raycast shaders always bind one. Both raycasters hold one.
#include <string>

#include "core/memory.h"
#include "graph/render_graph.h"

namespace isoscope {

class Context;

class SceneDepthInput {
public:
    // Creates the placeholder and clears it to 1 (a set-up submission).
    explicit SceneDepthInput(Context& context);
    ~SceneDepthInput();
    SceneDepthInput(const SceneDepthInput&) = delete;
    SceneDepthInput& operator=(const SceneDepthInput&) = delete;

    // `sceneDepth`, or the placeholder imported into `graph` as `name`.
    ResourceId resolve(RenderGraph& graph, ResourceId sceneDepth, const std::string& name) const;
    VkSampler sampler() const { return nearestSampler_; } // nearest, clamp to edge
    uint64_t allocatedBytes() const { return farDepth_.allocated; }

private:
    Context& context_;
    Image farDepth_;
    VkSampler nearestSampler_ = VK_NULL_HANDLE;
};

} // namespace isoscope
