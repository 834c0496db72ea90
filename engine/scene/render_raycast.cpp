#include "scene/render_raycast.h"

#include <cstring>
#include <utility>

#include "core/context.h"
#include "core/error.h"
#include "mesh/gpu_mesh.h"
#include "render/image_readback.h"
#include "render/mesh_pass.h"
#include "scene/ray_frame.h"

namespace isoscope {

Buffer createTailCountReadback(Context& context) { return createBufferReadback(context, 4, "raycast tail count"); }

void addTailCountReadback(RenderGraph& graph, ResourceId tailRays, const Buffer& readback)
{
    addBufferReadback(graph, tailRays, readback, "raycast tail count");
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
    RenderGraph graph(context);
    OffscreenRayFrame frame = beginOffscreenRayFrame(context, graph, extent, mesh, meshParams);
    RaycastParams rayParams = params;
    rayParams.clear = params.clear && !frame.meshDrawn(); // over a mesh, misses keep what it drew
    ResourceId tailRays = addIsoRaycastPass(graph, raycaster, frame.targets, rayParams);
    Buffer tailCount = createTailCountReadback(context);
    addTailCountReadback(graph, tailRays, tailCount);
    // Left to right: the frame runs before its tail count is read.
    RaycastImage result{runOffscreenRayFrame(graph, frame), raycaster.lastMode(), readTailCount(tailCount)};
    return result;
}

} // namespace isoscope
