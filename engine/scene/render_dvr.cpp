#include "scene/render_dvr.h"


namespace isoscope {

DvrImage renderDvrImage(Context& context, DvrRaycaster& dvr, const DvrParams& params, VkExtent2D extent,
                        const GpuMesh* mesh, const MeshDrawParams* meshParams)
{
    RenderGraph graph(context);
    OffscreenRayFrame frame = beginOffscreenRayFrame(context, graph, extent, mesh, meshParams);
    DvrParams frameParams = params;
    frameParams.clear = params.clear && !frame.meshDrawn(); // over a mesh, DVR composites over what it drew
    addDvrPass(graph, dvr, frame.targets, frameParams);
    DvrImage result{runOffscreenRayFrame(graph, frame), dvr.lastPlan()};
    return result;
}

} // namespace isoscope
