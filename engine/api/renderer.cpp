#include <algorithm>
#include <cstring>
#include <deque>

#include "api/api_impl.h"
#include "api/frame_graph.h"
#include "io/image_io.h"
#include "render/image_readback.h"

namespace isoscope::api {

namespace {

ResourceState state(const ImageState& s) { return {s.stage, s.access, s.layout}; }

bool sameState(const ImageState& a, const ImageState& b)
{
    return a.layout == b.layout && a.stage == b.stage && a.access == b.access;
}

bool sameTarget(const TargetImage& a, const TargetImage& b)
{
    return sameState(a.before, b.before) && sameState(a.after, b.after);
}

// One frame slot: the graph of its frames and the counts it copies out.
struct Slot {
    std::unique_ptr<RenderGraph> graph;
    std::unique_ptr<FrameParams> params;
    std::vector<Buffer> counts; // per surface: its GpuMeshCounters after the frame
    std::vector<uint32_t> faceSizes; // per surface: its mesh's
    FrameTargets states;        // the states the graph was compiled with
    std::vector<uint64_t> generations;
    VkExtent2D extent{};
    bool recorded = false;
};

} // namespace

struct detail::RendererImpl {
    isoscope::Context& context;
    RendererOptions options;
    FrameScene scene;
    std::vector<Slot> slots;
    uint64_t nextFrame = 0;
    uint64_t sceneVersion = 0;
    std::vector<uint64_t> slotSceneVersion;

    ~RendererImpl() { waitQueueIdle(context); } // nothing it owns may still be in use

    std::vector<uint64_t> generations() const
    {
        std::vector<uint64_t> result;
        for (const FrameSurface& surface : scene.surfaces)
            result.push_back(surface.surface->generation);
        return result;
    }
    void growWhereOverflowed(Slot& slot);
    void build(size_t index, const FrameTargets& targets);
};

// The counts of the frame this slot ran last (finished: the host waited for
// it): where a mesh or the method's lists overflowed, grow them so that later
// frames fit. Counts of a mesh grown since the slot was built are stale.
void detail::RendererImpl::growWhereOverflowed(Slot& slot)
{
    if (!slot.recorded)
        return;
    for (size_t i = 0; i < slot.counts.size() && i < scene.surfaces.size(); ++i)
        if (slot.generations[i] == scene.surfaces[i].surface->generation)
            growAfterFrame(context, *scene.surfaces[i].surface, slot.counts[i]);
}

void detail::RendererImpl::build(size_t index, const FrameTargets& targets)
{
    Slot& slot = slots[index];
    slot.graph.reset(); // its transients go before the new ones are made
    slot.graph = std::make_unique<RenderGraph>(context);
    RenderGraph& graph = *slot.graph;
    graph.setImportsFollowEarlierWork();
    VkExtent2D extent = options.extent;
    ResourceId color = graph.importImage("host colour", {targets.color.image, targets.color.view,
                                                         MeshRenderer::kColorFormat, extent},
                                         state(targets.color.before), state(targets.color.after));
    ResourceId depth = graph.importImage("host depth", {targets.depth.image, targets.depth.view,
                                                        MeshRenderer::kDepthFormat, extent},
                                         state(targets.depth.before), state(targets.depth.after));
    slot.params = addFrameScene(graph, scene, {color, depth}, extent, options.clear, slot.counts);
    graph.compile();
    slot.states = targets;
    slot.generations = generations();
    slot.faceSizes.clear();
    for (const FrameSurface& surface : scene.surfaces)
        slot.faceSizes.push_back(surface.surface->mesh.faceSize);
    slot.extent = extent;
    slot.recorded = false;
    slotSceneVersion[index] = sceneVersion;
}


Result<Renderer> Renderer::create(Context& context, const RendererOptions& options)
{
    return guarded<Renderer>(ErrorCode::InvalidArgument, [&]() -> Result<Renderer> {
        if (options.framesInFlight < 1 || options.framesInFlight > 3)
            return Error{ErrorCode::InvalidArgument, "RendererOptions::framesInFlight is " +
                                                         std::to_string(options.framesInFlight) + "; give 1, 2 or 3"};
        if (options.extent.width == 0 || options.extent.height == 0)
            return Error{ErrorCode::InvalidArgument, "RendererOptions::extent is empty; give the targets' size"};
        isoscope::Context& engine = *context.impl().context;
        Renderer renderer(own(new detail::RendererImpl{engine, options, FrameScene(engine)}));
        detail::RendererImpl* impl = &renderer.impl();
        impl->slots.resize(options.framesInFlight);
        impl->slotSceneVersion.assign(options.framesInFlight, UINT64_MAX);
        impl->scene.clearColor = glm::vec4(options.clearColor[0], options.clearColor[1], options.clearColor[2],
                                           options.clearColor[3]);
        return renderer;
    });
}

Status Renderer::addSurface(Isosurface& surface, const SurfaceStyle& style)
{
    return guardedStatus(ErrorCode::InvalidArgument, [&] {
        impl().scene.addSurface(surface.impl(), style);
        ++impl().sceneVersion;
    });
}

Status Renderer::addRaycast(IsoRaycast& raycast)
{
    return guardedStatus(ErrorCode::InvalidArgument, [&] {
        impl().scene.setRays(&raycast.impl(), nullptr);
        ++impl().sceneVersion;
    });
}

Status Renderer::addVolumeRendering(VolumeRendering& rendering)
{
    return guardedStatus(ErrorCode::InvalidArgument, [&] {
        impl().scene.setRays(nullptr, &rendering.impl());
        ++impl().sceneVersion;
    });
}

void Renderer::clearScene()
{
    impl().scene.clear();
    ++impl().sceneVersion;
}

Status Renderer::setCamera(const Camera& camera)
{
    return guardedStatus(ErrorCode::InvalidArgument, [&] {
        checkCamera(camera);
        impl().scene.camera = orbitCamera(camera);
    });
}

Status Renderer::setExtent(VkExtent2D extent)
{
    if (extent.width == 0 || extent.height == 0)
        return Error{ErrorCode::InvalidArgument, "Renderer::setExtent: the extent is empty"};
    impl().options.extent = extent;
    return {};
}

Status Renderer::record(VkCommandBuffer cmd, uint64_t frame, const FrameTargets& targets)
{
    return guardedStatus(ErrorCode::InvalidArgument, [&] {
        detail::RendererImpl& r = impl();
        if (!cmd)
            fail("Renderer::record: the command buffer is VK_NULL_HANDLE");
        if (!targets.color.image || !targets.color.view || !targets.depth.image || !targets.depth.view)
            fail("Renderer::record: the colour and depth targets need an image and a view each");
        if (frame != r.nextFrame)
            fail("Renderer::record: frame " + std::to_string(frame) + " after frame " +
                 std::to_string(r.nextFrame) + " - 1; frames are recorded in order, 0, 1, 2, ...");
        size_t index = size_t(frame % r.options.framesInFlight);
        Slot& slot = r.slots[index];
        r.growWhereOverflowed(slot);
        if (!slot.graph || r.slotSceneVersion[index] != r.sceneVersion || slot.generations != r.generations() ||
            slot.extent.width != r.options.extent.width || slot.extent.height != r.options.extent.height ||
            !sameTarget(slot.states.color, targets.color) || !sameTarget(slot.states.depth, targets.depth))
            r.build(index, targets);
        slot.graph->setImportedImage(slot.params->color, {targets.color.image, targets.color.view,
                                                            MeshRenderer::kColorFormat, r.options.extent});
        slot.graph->setImportedImage(slot.params->depth, {targets.depth.image, targets.depth.view,
                                                            MeshRenderer::kDepthFormat, r.options.extent});
        slot.params->refresh(r.scene);
        slot.graph->record(cmd);
        slot.recorded = true;
        ++r.nextFrame;
    });
}

std::vector<PassTime> Renderer::passTimes(uint64_t frame)
{
    Slot& slot = impl().slots[size_t(frame % impl().options.framesInFlight)];
    std::vector<PassTime> result;
    if (!slot.graph || !slot.recorded)
        return result;
    for (const auto& [pass, ms] : slot.graph->passTimings())
        result.push_back({pass, ms});
    return result;
}

std::vector<MeshCounts> Renderer::meshCounts(uint64_t frame)
{
    Slot& slot = impl().slots[size_t(frame % impl().options.framesInFlight)];
    std::vector<MeshCounts> result;
    if (!slot.graph || !slot.recorded)
        return result;
    for (const Buffer& counts : slot.counts) {
        GpuMeshCounters counters;
        std::memcpy(&counters, counts.mapped, sizeof counters);
        // The draw's index count is what was written and drawn: faceSize indices a face, two triangles a quad.
        uint32_t faceSize = slot.faceSizes[result.size()];
        uint64_t faces = counters.draw.indexCount / faceSize;
        result.push_back({std::min(counters.vertexCount, counters.vertexCapacity), faces * (faceSize - 2),
                          counters.overflow != 0, faces, faceSize});
    }
    return result;
}

Result<Image> Renderer::renderImage(VkExtent2D extent)
{
    return guarded<Image>(ErrorCode::InvalidArgument, [&]() -> Result<Image> {
        detail::RendererImpl& r = impl();
        if (extent.width == 0 || extent.height == 0)
            return Error{ErrorCode::InvalidArgument, "Renderer::renderImage: the extent is empty"};
        VK_CHECK(waitQueueIdle(r.context)); // after the host's frames, which share the meshes
        RgbaImage pixels = renderFrameScene(r.context, r.scene, extent);
        return Image{pixels.width, pixels.height, std::move(pixels.pixels)};
    });
}

Status writePng(const Image& image, const std::string& path)
{
    return guardedStatus(ErrorCode::InvalidFile, [&] {
        if (image.rgba.size() != size_t(image.width) * image.height * 4)
            fail("writePng(" + path + "): the image holds " + std::to_string(image.rgba.size()) + " bytes, not " +
                 std::to_string(image.width) + " x " + std::to_string(image.height) + " x 4");
        isoscope::writePng(RgbaImage{image.width, image.height, image.rgba}, path);
    });
}

} // namespace isoscope::api
