#include "scene/render_dvr.h"

#include <optional>

#include "core/context.h"
#include "core/error.h"
#include "mesh/gpu_mesh.h"
#include "render/image_readback.h"
#include "render/mesh_pass.h"

namespace isoscope {

DvrImage renderDvrImage(Context& context, DvrRaycaster& dvr, const DvrParams& params, VkExtent2D extent,
                        const GpuMesh* mesh, const MeshDrawParams* meshParams)
{
    if (extent.width == 0 || extent.height == 0)
        fail("cannot render an image of " + std::to_string(extent.width) + "x" + std::to_string(extent.height) +
             " pixels: give a size of at least 1x1");
    if (mesh && !meshParams)
        fail("a mesh to composite needs its draw parameters (engine bug)");
    // The colour target is the host's (imported), drawn by the raster pass and composited by DVR.
    Image color = context.allocator().createImage(
        VK_IMAGE_TYPE_2D, {extent.width, extent.height, 1}, kRayColorFormat,
        VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
        "colour target");
    Buffer colorReadback = createReadbackBuffer(context, extent);
    Buffer depthReadback = createReadbackBuffer(context, extent);

    DvrParams frameParams = params;
    RenderGraph graph(context);
    RaycastTargets targets;
    targets.color = graph.importImage("color", graphImage(color));
    targets.depth = graph.createImage("ray depth", extent, kRayDepthFormat);
    std::optional<MeshRenderer> renderer;
    if (mesh) {
        renderer.emplace(context);
        targets.sceneDepth = graph.createImage("depth", extent, MeshRenderer::kDepthFormat);
        addMeshPass(graph, *renderer, importMesh(graph, *mesh), {targets.color, targets.sceneDepth}, *meshParams);
        frameParams.clear = false; // the mesh pass cleared; DVR composites over what it drew
    }
    addDvrPass(graph, dvr, targets, frameParams);
    addReadbackPass(graph, targets.color, colorReadback);
    addReadbackPass(graph, targets.depth, depthReadback);
    graph.compile();
    graph.execute();

    DvrImage result;
    result.image = readRgba(colorReadback, extent);
    result.depth = readFloats(depthReadback, extent);
    result.gpuMsPerPass = graph.passTimings();
    result.plan = dvr.lastPlan();
    return result;
}

} // namespace isoscope
