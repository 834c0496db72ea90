#pragma once
// What a headless raycast or DVR image holds around its pass (render_raycast.h,
// render_dvr.h): the colour target the host owns (imported, as a window's
// swapchain image would be), the ray depth, with a mesh the raster pass that
// draws it first into the same colour and a depth the rays stop at, and the
// read-backs of colour and depth.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/memory.h"
#include "graph/render_graph.h"
#include "io/image_io.h"
#include "raycast/iso_raycaster.h"

namespace isoscope {

class MeshRenderer;
struct GpuMesh;
struct MeshDrawParams;

struct OffscreenRayFrame {
    OffscreenRayFrame();
    ~OffscreenRayFrame();
    OffscreenRayFrame(OffscreenRayFrame&&) noexcept;

    VkExtent2D extent{};
    Image color;
    Buffer colorReadback, depthReadback;
    RaycastTargets targets;
    std::unique_ptr<MeshRenderer> renderer; // with a mesh
    bool meshDrawn() const { return renderer != nullptr; }
};

// Checks the size, creates the targets in `graph` and, given a mesh, adds its
// draw. Throws Error for an empty image or a mesh without draw parameters.
OffscreenRayFrame beginOffscreenRayFrame(Context& context, RenderGraph& graph, VkExtent2D extent,
                                         const GpuMesh* mesh, const MeshDrawParams* meshParams);
struct OffscreenRayImage {
    RgbaImage image;
    std::vector<float> depth; // per pixel, row by row
    std::vector<std::pair<std::string, double>> gpuMsPerPass; // empty without timestamps
};

// Adds the read-backs of colour and depth (after the rays' pass), compiles
// and runs the graph once, and reads the pixels back.
OffscreenRayImage runOffscreenRayFrame(RenderGraph& graph, const OffscreenRayFrame& frame);

} // namespace isoscope
