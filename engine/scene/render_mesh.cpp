#include "scene/render_mesh.h"

#include <functional>

#include "core/context.h"
#include "core/error.h"
#include "extract/extraction_run.h"
#include "extract/gpu_extractor.h"
#include "render/image_readback.h"

namespace isoscope {

namespace {

// What one headless image needs besides the mesh: the renderer, the colour
// target and the buffer it is read back into.
struct Offscreen {
    Offscreen(Context& context, VkExtent2D extent) : extent(extent), renderer(context)
    {
        if (extent.width == 0 || extent.height == 0)
            fail("cannot render an image of " + std::to_string(extent.width) + "x" + std::to_string(extent.height) +
                 " pixels: give a size of at least 1x1");
        // The colour target is the host's (imported), as a window's swapchain
        // image would be; the depth buffer is the graph's own.
        color = createColorTarget(context, extent, "colour target");
        readback = createReadbackBuffer(context, extent);
    }

    // Builds "<passes that make the mesh>" → "draw mesh" → "read back color",
    // runs it once and reads the image back.
    RenderedImage draw(Context& context, const MeshDrawParams& params,
                       const std::function<MeshBuffers(RenderGraph&)>& addMesh)
    {
        RenderGraph graph(context);
        ResourceId colorId = graph.importImage("color", graphImage(color));
        ResourceId depthId = graph.createImage("depth", extent, MeshRenderer::kDepthFormat);
        addMeshPass(graph, renderer, addMesh(graph), {colorId, depthId}, params);
        addReadbackPass(graph, colorId, readback);
        graph.compile();
        graph.execute();
        return {readRgba(readback, extent), graph.passTimings()};
    }

    VkExtent2D extent;
    MeshRenderer renderer;
    Image color;
    Buffer readback;
};

} // namespace

RenderedImage renderMeshImage(Context& context, const GpuMesh& mesh, const MeshDrawParams& params,
                              VkExtent2D extent)
{
    Offscreen offscreen(context, extent);
    return offscreen.draw(context, params, [&](RenderGraph& graph) { return importMesh(graph, mesh); });
}

RenderedImage renderExtractionImage(Context& context, GpuExtractor& extractor, float iso, GpuMesh& mesh,
                                    const MeshDrawParams& params, VkExtent2D extent, GpuMeshCounters& counters)
{
    Offscreen offscreen(context, extent);
    for (int attempt = 0;; ++attempt) {
        RenderedImage image = offscreen.draw(context, params, [&](RenderGraph& graph) {
            MeshBuffers buffers = importMesh(graph, mesh);
            extractor.addToGraph(graph, buffers, iso);
            return buffers;
        });
        counters = readCounters(context, mesh);
        if (!counters.overflow)
            return image;
        if (attempt == 3)
            fail("the extraction overflowed its buffers again after growing them");
        growAfterOverflow(context, extractor, mesh, counters);
    }
}

} // namespace isoscope
