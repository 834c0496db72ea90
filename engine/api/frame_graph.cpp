#include "api/frame_graph.h"

#include <cstring>

#include "render/image_readback.h"
#include "render/quad_draw_args.h"

namespace isoscope::api {

namespace {

glm::vec3 vec(const std::array<float, 3>& v) { return {v[0], v[1], v[2]}; }

} // namespace

void FrameScene::addSurface(detail::IsosurfaceImpl& surface, const SurfaceStyle& style)
{
    surfaces.push_back({&surface, style});
}

void FrameScene::setRays(detail::IsoRaycastImpl* iso, detail::VolumeRenderingImpl* volume)
{
    if (raycast || dvr)
        fail("the Renderer has a raycast or volume rendering already: it draws at most one (clearScene() to start over)");
    raycast = iso;
    dvr = volume;
}

void FrameScene::clear()
{
    surfaces.clear();
    raycast = nullptr;
    dvr = nullptr;
}

void FrameParams::refresh(const FrameScene& scene)
{
    for (size_t i = 0; i < isos.size(); ++i)
        isos[i] = scene.surfaces[i].surface->iso;
    for (size_t i = 0; i < meshes.size(); ++i) {
        const SurfaceStyle& style = scene.surfaces[drawnSurfaces[i]].style;
        meshes[i].camera = scene.camera;
        meshes[i].frontColor = vec(style.frontColor);
        meshes[i].backColor = vec(style.backColor);
        meshes[i].clearColor = scene.clearColor;
        meshes[i].clear = clear && i == 0; // the first draw clears, the others draw over it
    }
    // Rays clear only where nothing was drawn before them.
    bool raysClear = clear && meshes.empty();
    if (scene.raycast) {
        ray = scene.raycast->params;
        ray.camera = scene.camera;
        ray.clearColor = scene.clearColor;
        ray.clear = raysClear;
    }
    if (scene.dvr) {
        dvr = scene.dvr->params;
        dvr.camera = scene.camera;
        dvr.clearColor = scene.clearColor;
        dvr.clear = raysClear;
    }
}

std::unique_ptr<FrameParams> addFrameScene(RenderGraph& graph, const FrameScene& scene, FrameTargetIds targets,
                                           VkExtent2D extent, bool clear, std::vector<Buffer>& counts)
{
    counts.clear();
    auto params = std::make_unique<FrameParams>();
    params->color = targets.color;
    params->depth = targets.depth;
    params->clear = clear;
    for (size_t i = 0; i < scene.surfaces.size(); ++i) {
        const FrameSurface& surface = scene.surfaces[i];
        std::string name = "surface " + std::to_string(i);
        isoscope::MeshBuffers mesh = importMesh(graph, surface.surface->mesh, name, !surface.style.draw);
        float& iso = params->isos.emplace_back(surface.surface->iso);
        surface.surface->extractor->addToGraph(graph, mesh, iso, name + " ");
        if (surface.style.draw) {
            const MeshDrawParams& draw = params->meshes.emplace_back();
            params->drawnSurfaces.push_back(i);
            addMeshPass(graph, scene.meshRenderer, mesh, {targets.color, targets.depth}, draw, "draw " + name);
        } else if (mesh.faceSize == 4) {
            // The host draws the quads: their VkDrawIndirectCommand (MeshBuffers::quadDrawArguments).
            ResourceId args = graph.importBuffer(
                name + " quad draw arguments", surface.surface->quadDrawArguments.buffer, {},
                ResourceState{VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT, VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT});
            addQuadDrawArgsPass(graph, scene.meshRenderer.quadDrawArgs(), mesh.counters, args, name + " quad args");
        }
        counts.push_back(createBufferReadback(graph.context(), sizeof(GpuMeshCounters), "surface counts"));
        addBufferReadback(graph, mesh.counters, counts.back(), name + " counts");
    }
    params->refresh(scene); // the ray passes check their parameters when added
    if (scene.raycast || scene.dvr) {
        // Composite: stop at what the host or the meshes drew; clear with nothing drawn: no depth to stop at.
        bool sceneDepth = !clear || !params->meshes.empty();
        RaycastTargets rays{targets.color, graph.createImage("ray depth", extent, kRayDepthFormat),
                            sceneDepth ? targets.depth : kNoResource};
        if (scene.raycast)
            addIsoRaycastPass(graph, scene.raycast->raycaster, rays, params->ray);
        else
            addDvrPass(graph, scene.dvr->dvr, rays, params->dvr);
    }
    return params;
}

bool growAfterFrame(isoscope::Context& context, detail::IsosurfaceImpl& surface, const Buffer& counts)
{
    GpuMeshCounters counters;
    std::memcpy(&counters, counts.mapped, sizeof counters);
    if (!counters.overflow)
        return false;
    VK_CHECK(waitQueueIdle(context)); // frames in flight still use what grows
    surface.extractor->growAfterOverflow();
    if (counters.vertexCount > surface.mesh.vertexCapacity || counters.faceCount > surface.mesh.faceCapacity) {
        // A quarter more than counted, so that an animated isovalue settles after a few growths.
        uint64_t vertices = uint64_t(std::max(counters.vertexCount, surface.mesh.vertexCapacity)) * 5 / 4;
        uint64_t faces = uint64_t(std::max(counters.faceCount, surface.mesh.faceCapacity)) * 5 / 4;
        surface.mesh = GpuMesh{}; // release before allocating the larger one
        surface.mesh = createGpuMesh(context, vertices, faces, surface.extractor->faceSize());
    }
    ++surface.generation;
    return true;
}

RgbaImage renderFrameScene(isoscope::Context& context, FrameScene& scene, VkExtent2D extent)
{
    // Each overflow grows the buffers to the counted sizes, so a second run fits.
    for (int attempt = 0; attempt < 4; ++attempt) {
        isoscope::Image color = createColorTarget(context, extent, "renderImage colour");
        Buffer readback = createReadbackBuffer(context, extent);
        std::vector<Buffer> counts;
        RenderGraph graph(context);
        FrameTargetIds targets{graph.importImage("colour", graphImage(color)),
                               graph.createImage("depth", extent, MeshRenderer::kDepthFormat)};
        std::unique_ptr<FrameParams> params = addFrameScene(graph, scene, targets, extent, true, counts);
        addReadbackPass(graph, targets.color, readback);
        graph.compile();
        graph.execute();
        bool grew = false;
        for (size_t i = 0; i < scene.surfaces.size(); ++i)
            grew = growAfterFrame(context, *scene.surfaces[i].surface, counts[i]) || grew;
        if (!grew)
            return readRgba(readback, extent);
    }
    fail("renderImage: the meshes still overflowed after growing to the counted sizes (engine bug)");
}

} // namespace isoscope::api
