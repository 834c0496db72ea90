#include "scene/ray_frame.h"

#include <string>

#include "core/context.h"
#include "core/error.h"
#include "mesh/gpu_mesh.h"
#include "render/image_readback.h"
#include "render/mesh_pass.h"

namespace isoscope {

OffscreenRayFrame::OffscreenRayFrame() = default;
OffscreenRayFrame::~OffscreenRayFrame() = default;
OffscreenRayFrame::OffscreenRayFrame(OffscreenRayFrame&&) noexcept = default;

OffscreenRayFrame beginOffscreenRayFrame(Context& context, RenderGraph& graph, VkExtent2D extent,
                                         const GpuMesh* mesh, const MeshDrawParams* meshParams)
{
    if (extent.width == 0 || extent.height == 0)
        fail("cannot render an image of " + std::to_string(extent.width) + "x" + std::to_string(extent.height) +
             " pixels: give a size of at least 1x1");
    if (mesh && !meshParams)
        fail("a mesh to composite needs its draw parameters (engine bug)");
    OffscreenRayFrame frame;
    frame.extent = extent;
    frame.color = createColorTarget(context, extent, "colour target");
    frame.colorReadback = createReadbackBuffer(context, extent);
    frame.depthReadback = createReadbackBuffer(context, extent);
    frame.targets.color = graph.importImage("color", graphImage(frame.color));
    frame.targets.depth = graph.createImage("ray depth", extent, kRayDepthFormat);
    if (mesh) {
        frame.renderer = std::make_unique<MeshRenderer>(context);
        frame.targets.sceneDepth = graph.createImage("depth", extent, MeshRenderer::kDepthFormat);
        addMeshPass(graph, *frame.renderer, importMesh(graph, *mesh), {frame.targets.color, frame.targets.sceneDepth},
                    *meshParams);
    }
    return frame;
}

OffscreenRayImage runOffscreenRayFrame(RenderGraph& graph, const OffscreenRayFrame& frame)
{
    addReadbackPass(graph, frame.targets.color, frame.colorReadback);
    addReadbackPass(graph, frame.targets.depth, frame.depthReadback);
    graph.compile();
    graph.execute();
    return {readRgba(frame.colorReadback, frame.extent), readFloats(frame.depthReadback, frame.extent),
            graph.passTimings()};
}

} // namespace isoscope
