#pragma once
// What a Renderer's frame holds, as render-graph passes: each surface's
// extraction (and its draw), then one raycast or volume rendering that
// stops at the depth drawn before it. The host's frames and renderImage()
// build their graphs from the same scene here.
#include <deque>
#include <memory>
#include <vector>

#include "api/api_impl.h"
#include "io/image_io.h"
#include "render/mesh_pass.h"

namespace isoscope::api {

struct FrameSurface {
    detail::IsosurfaceImpl* surface = nullptr;
    SurfaceStyle style;
};

struct FrameScene {
    explicit FrameScene(isoscope::Context& context) : meshRenderer(context) {}
    void addSurface(detail::IsosurfaceImpl& surface, const SurfaceStyle& style);
    // Throws Error when the scene has rays already.
    void setRays(detail::IsoRaycastImpl* raycast, detail::VolumeRenderingImpl* dvr);
    void clear();

    MeshRenderer meshRenderer;
    std::vector<FrameSurface> surfaces;
    detail::IsoRaycastImpl* raycast = nullptr;
    detail::VolumeRenderingImpl* dvr = nullptr;
    OrbitCamera camera;
    glm::vec4 clearColor{0.08f, 0.08f, 0.10f, 1.0f};
};

// A graph's own copies of the parameters its passes read when it records,
// refreshed from the scene before each recording (so that one scene serves
// graphs that clear and graphs that composite).
struct FrameParams {
    ResourceId color = kNoResource, depth = kNoResource;
    bool clear = false;
    std::deque<float> isos;               // per surface
    std::deque<MeshDrawParams> meshes;    // per drawn surface
    std::vector<size_t> drawnSurfaces;    // the surface of each entry of `meshes`
    RaycastParams ray;
    DvrParams dvr;
    void refresh(const FrameScene& scene);
};

struct FrameTargetIds {
    ResourceId color = kNoResource; // R8G8B8A8_UNORM, attachment and storage
    ResourceId depth = kNoResource; // D32_SFLOAT, attachment and sampled
};

// Adds the scene's passes. `counts` is given one host-visible buffer per
// surface, which receives that mesh's counters after the frame.
std::unique_ptr<FrameParams> addFrameScene(RenderGraph& graph, const FrameScene& scene, FrameTargetIds targets,
                                           VkExtent2D extent, bool clear, std::vector<Buffer>& counts);

// After a finished frame whose counters say a mesh or the method's lists
// overflowed: waits for the queue, grows them, and says whether it did.
bool growAfterFrame(isoscope::Context& context, detail::IsosurfaceImpl& surface, const Buffer& counts);

// One frame into targets of its own, cleared, run until no mesh overflows.
RgbaImage renderFrameScene(isoscope::Context& context, FrameScene& scene, VkExtent2D extent);

} // namespace isoscope::api
