#include "isoscope_scene.h"

#include <cmath>

#include "check.h"

namespace embed {
using namespace samplehost; // the host code shared with the viewer (samples/common)

namespace api = isoscope::api;

namespace {

// A shell about the isovalue: a volume rendering that shows the same
// surface as the other modes, whichever way the field grows.
api::TransferPoints shellAround(float iso, double lo, double hi)
{
    double width = 0.06 * (hi - lo);
    api::TransferPoints points;
    points.color = {{lo, 0.95, 0.65, 0.35}, {hi, 0.95, 0.65, 0.35}};
    points.opacity = {{lo, 0.0}};
    for (double value : {iso - width, double(iso), iso + width})
        if (value > points.opacity.back()[0] && value < hi)
            points.opacity.push_back({value, value == iso ? 0.6 : 0.0});
    points.opacity.push_back({hi, 0.0});
    return points;
}

} // namespace

void IsoscopeScene::setFrameIsovalue(uint64_t frame, bool animate)
{
    float iso = baseIso;
    if (animate)
        iso += valueSpan * animateSpan * float(std::sin(double(frame) * 0.1));
    if (surface)
        require(surface->setIsovalue(iso), "setting the isovalue");
    if (raycast)
        require(raycast->setIsovalue(iso), "setting the isovalue");
}

std::unique_ptr<IsoscopeScene> createIsoscopeScene(HostDevice& host, const Options& options, VkExtent2D extent)
{
    auto scene = std::make_unique<IsoscopeScene>();
    scene->animateSpan = options.animateSpan;
    api::HostVulkan vulkan{host.instance, host.physical, host.device, host.family, host.queue};
    scene->context.emplace(take(api::Context::wrap(vulkan, *host.setup), "isoscope::api::Context::wrap"));
    scene->volume.emplace(take(api::Volume::load(*scene->context, options.volume), "volume " + options.volume));

    auto [lo, hi] = scene->volume->valueRange();
    scene->valueSpan = float(hi - lo);
    scene->baseIso = options.iso.value_or(float(0.5 * (lo + hi)));

    if (options.scene == SceneKind::Host)
        return scene; // the volume only places the host's scene

    api::RendererOptions rendererOptions;
    rendererOptions.framesInFlight = options.framesInFlight;
    rendererOptions.extent = extent;
    rendererOptions.clear = false; // composite over the host's scene by depth
    scene->renderer.emplace(take(api::Renderer::create(*scene->context, rendererOptions), "isoscope::api::Renderer::create"));

    switch (options.surface) {
    case SurfaceKind::Mesh:
        scene->surface.emplace(take(api::Isosurface::create(*scene->context, *scene->volume), "isoscope::api::Isosurface::create"));
        require(scene->renderer->addSurface(*scene->surface), "isoscope::api::Renderer::addSurface");
        break;
    case SurfaceKind::Raycast:
        scene->raycast.emplace(take(api::IsoRaycast::create(*scene->context, *scene->volume), "isoscope::api::IsoRaycast::create"));
        require(scene->renderer->addRaycast(*scene->raycast), "isoscope::api::Renderer::addRaycast");
        break;
    case SurfaceKind::Dvr:
        scene->dvr.emplace(take(api::VolumeRendering::create(*scene->context, *scene->volume), "isoscope::api::VolumeRendering::create"));
        require(scene->dvr->setTransferFunction(shellAround(scene->baseIso, lo, hi)),
                "isoscope::api::VolumeRendering::setTransferFunction");
        require(scene->renderer->addVolumeRendering(*scene->dvr), "isoscope::api::Renderer::addVolumeRendering");
        break;
    }
    scene->setFrameIsovalue(0, false);
    return scene;
}

} // namespace embed
