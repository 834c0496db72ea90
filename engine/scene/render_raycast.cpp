#include "scene/render_raycast.h"

#include <cstring>

#include "core/context.h"
#include "core/error.h"
#include "mesh/gpu_mesh.h"
#include "render/image_readback.h"
#include "render/mesh_pass.h"

namespace isoscope {

Buffer createTailCountReadback(Context& context)
{
    return context.allocator().createBuffer(4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUsage::Readback,
                                            "raycast tail count read-back");
}

void addTailCountReadback(RenderGraph& graph, ResourceId tailRays, const Buffer& readback)
{
    ResourceId target = graph.importBuffer("raycast tail count", readback.buffer, {},
                                           ResourceState{VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT});
    graph.addPass("read back raycast tail count", PassKind::Transfer,
                  {{tailRays, Use::TransferSrc}, {target, Use::TransferDst}},
                  [tailRays, target](VkCommandBuffer cmd, const RenderGraph& g) {
                      VkBufferCopy region{0, 0, 4};
                      vkCmdCopyBuffer(cmd, g.buffer(tailRays), g.buffer(target), 1, &region);
                  });
}

uint32_t readTailCount(const Buffer& readback)
{
    if (!readback.mapped || readback.size < 4)
        fail("raycast tail count read-back buffer is not mapped (engine bug)");
    uint32_t count;
    std::memcpy(&count, readback.mapped, sizeof count);
    return count;
}

RaycastImage renderRaycastImage(Context& context, IsoRaycaster& raycaster, const RaycastParams& params,
                                VkExtent2D extent, const GpuMesh* mesh, const MeshDrawParams* meshParams)
{
    if (extent.width == 0 || extent.height == 0)
        fail("cannot render an image of " + std::to_string(extent.width) + "x" + std::to_string(extent.height) +
             " pixels: give a size of at least 1x1");
    if (mesh && !meshParams)
        fail("a mesh to composite needs its draw parameters (engine bug)");
    // The colour target is the host's (imported), as a window's swapchain
    // image would be: drawn by the raster pass, written by the raycaster.
    Image color = context.allocator().createImage(
        VK_IMAGE_TYPE_2D, {extent.width, extent.height, 1}, kRayColorFormat,
        VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
        "colour target");
    Buffer colorReadback = createReadbackBuffer(context, extent);
    Buffer depthReadback = createReadbackBuffer(context, extent);

    RaycastParams rayParams = params;
    RenderGraph graph(context);
    RaycastTargets targets;
    targets.color = graph.importImage("color", graphImage(color));
    targets.depth = graph.createImage("ray depth", extent, kRayDepthFormat);
    std::optional<MeshRenderer> renderer;
    if (mesh) {
        renderer.emplace(context);
        targets.sceneDepth = graph.createImage("depth", extent, MeshRenderer::kDepthFormat);
        addMeshPass(graph, *renderer, importMesh(graph, *mesh), {targets.color, targets.sceneDepth}, *meshParams);
        rayParams.clear = false; // the mesh pass cleared; misses keep what it drew
    }
    ResourceId tailRays = addIsoRaycastPass(graph, raycaster, targets, rayParams);
    Buffer tailCount = createTailCountReadback(context);
    addTailCountReadback(graph, tailRays, tailCount);
    addReadbackPass(graph, targets.color, colorReadback);
    addReadbackPass(graph, targets.depth, depthReadback);
    graph.compile();
    graph.execute();

    RaycastImage result;
    result.image = readRgba(colorReadback, extent);
    result.depth = readFloats(depthReadback, extent);
    result.gpuMsPerPass = graph.passTimings();
    result.mode = raycaster.lastMode();
    result.handedOnRays = readTailCount(tailCount);
    return result;
}

} // namespace isoscope
