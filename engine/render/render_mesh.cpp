#include "render/render_mesh.h"

#include "core/context.h"
#include "core/error.h"
#include "extract/extraction_pass.h"
#include "extract/gpu_extractor.h"
#include "render/image_readback.h"

namespace isoscope {

RenderedImage renderMeshImage(Context& context, const GpuMesh& mesh, const MeshDrawParams& params,
                              VkExtent2D extent)
{
    if (extent.width == 0 || extent.height == 0)
        fail("cannot render an image of " + std::to_string(extent.width) + "x" + std::to_string(extent.height) +
             " pixels: give a size of at least 1x1");
    MeshRenderer renderer(context);
    // The colour target is the host's (imported), as a window's swapchain
    // image would be; the depth buffer is the graph's own.
    Image color = context.allocator().createImage(VK_IMAGE_TYPE_2D, {extent.width, extent.height, 1},
                                                  MeshRenderer::kColorFormat,
                                                  VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                                                  "colour target");
    Buffer readback = createReadbackBuffer(context, extent);

    RenderGraph graph(context);
    ResourceId colorId = graph.importImage("color", graphImage(color));
    ResourceId depthId = graph.createImage("depth", extent, MeshRenderer::kDepthFormat);
    addMeshPass(graph, renderer, importMesh(graph, mesh), {colorId, depthId}, params);
    addReadbackPass(graph, colorId, readback);
    graph.compile();
    graph.execute();
    return {readRgba(readback, extent), graph.passTimings()};
}

RenderedImage renderExtractionImage(Context& context, GpuExtractor& extractor, float iso, GpuMesh& mesh,
                                    const MeshDrawParams& params, VkExtent2D extent, GpuMeshCounters& counters)
{
    if (extent.width == 0 || extent.height == 0)
        fail("cannot render an image of " + std::to_string(extent.width) + "x" + std::to_string(extent.height) +
             " pixels: give a size of at least 1x1");
    MeshRenderer renderer(context);
    ExtractionPass extraction(context, extractor);
    Image color = context.allocator().createImage(VK_IMAGE_TYPE_2D, {extent.width, extent.height, 1},
                                                  MeshRenderer::kColorFormat,
                                                  VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                                                  "colour target");
    Buffer readback = createReadbackBuffer(context, extent);
    for (int attempt = 0;; ++attempt) {
        RenderGraph graph(context);
        ResourceId colorId = graph.importImage("color", graphImage(color));
        ResourceId depthId = graph.createImage("depth", extent, MeshRenderer::kDepthFormat);
        MeshBuffers buffers = importMesh(graph, mesh);
        extraction.add(graph, mesh, buffers, iso);
        addMeshPass(graph, renderer, buffers, {colorId, depthId}, params);
        addReadbackPass(graph, colorId, readback);
        graph.compile();
        graph.execute();
        counters = readCounters(context, mesh);
        if (!counters.overflow)
            return {readRgba(readback, extent), graph.passTimings()};
        if (attempt == 3)
            fail("the extraction overflowed its buffers again after growing them");
        bool grew = extractor.growAfterOverflow();
        if (counters.vertexCount > mesh.vertexCapacity || counters.faceCount > mesh.faceCapacity) {
            mesh = GpuMesh{};
            mesh = createGpuMesh(context, counters.vertexCount, counters.faceCount, extractor.faceSize());
        } else if (!grew) {
            fail("the extraction reported an overflow that no buffer explains");
        }
    }
}

} // namespace isoscope
