#include "viewer_scene.h"

#include <chrono>

#include "check.h"

namespace viewer {
using samplehost::Failure;
using samplehost::require;
using samplehost::take;

void waitForDevice(isoscope::api::Context& context)
{
    std::lock_guard queue(context.queueMutex()); // a volume may be loading on another thread
    VK_CHECK(vkDeviceWaitIdle(context.device()));
}

void ViewerScene::load(const std::string& pathOrSpec, std::optional<float> isovalue)
{
    install(loadVolume(context, pathOrSpec, method, weld, kHistogramBins), isovalue);
}

void ViewerScene::install(LoadedVolume&& loaded, std::optional<float> isovalue)
{
    waitForDevice(context); // frames in flight still read what is replaced
    renderer->clearScene();
    dvr.reset();
    raycast.reset();
    surface.reset();
    volume.reset();

    source = loaded.source;
    volume = std::move(loaded.volume);
    histogram = std::move(loaded.histogram);
    surface = std::move(loaded.surface);
    raycast = std::move(loaded.raycast);
    dvr = std::move(loaded.dvr);
    std::array<double, 2> range = volume->valueRange();
    if (extent.width && extent.height) // the frame loop moves it; calibration before the first frame uses this one
        camera = isoscope::api::frameVolume(*volume, float(extent.width) / float(extent.height));
    iso = isovalue.value_or(float(0.5 * (range[0] + range[1])));
    if (!transferFunction.empty())
        setTransferFunction(transferFunction);
    else
        setTransferPoints(tfPoints); // the edited points carry over to a reload
    tfPoints = dvr->transferFunction();
    setClip(clip);
    setIsovalue(iso);
    if (loaded.method != method || loaded.weld != weld) {
        isoscope::api::Method chosen = method; // changed while it loaded
        bool chosenWeld = weld;
        method = loaded.method;
        weld = loaded.weld;
        setMode(mode);
        remakeSurface(chosen, chosenWeld);
    } else {
        setMode(mode);
    }
}

void ViewerScene::setMode(Mode newMode)
{
    mode = newMode;
    calibrating = false;
    renderer->clearScene();
    if (drawsMesh())
        require(renderer->addSurface(*surface), "drawing the mesh");
    if (mode == Mode::IsoStandard || mode == Mode::IsoWarp || mode == Mode::IsoAuto) {
        isoscope::api::IsoRaycastOptions options;
        options.mapping = mode == Mode::IsoWarp   ? isoscope::api::RayMapping::Subgroup
                          : mode == Mode::IsoAuto ? isoscope::api::RayMapping::Auto
                                                  : isoscope::api::RayMapping::Invocation;
        if (mode == Mode::IsoAuto && !raycast->calibrated()) {
            if (calibrateBetweenFrames) {
                calibrating = true; // stepCalibration; one invocation per ray meanwhile
                calibration = {};
                options.mapping = isoscope::api::RayMapping::Invocation;
            } else {
                waitForDevice(context); // calibration's frames are timed alone
                require(raycast->calibrate(extent, camera), "calibrating iso-auto's cost model");
            }
        }
        require(raycast->setOptions(options), "the raycast's ray mapping");
        require(renderer->addRaycast(*raycast), "drawing the raycast");
    }
    if (mode == Mode::Dvr || mode == Mode::MeshDvr)
        require(renderer->addVolumeRendering(*dvr), "drawing the volume rendering");
}

void ViewerScene::setMethod(isoscope::api::Method newMethod)
{
    if (newMethod == method && surface)
        return;
    remakeSurface(newMethod, weld);
}

void ViewerScene::setWeld(bool on)
{
    if (on == weld && surface)
        return;
    remakeSurface(method, on);
}

void ViewerScene::remakeSurface(isoscope::api::Method newMethod, bool newWeld)
{
    waitForDevice(context);
    renderer->clearScene();
    // Made before the old one goes, so that a refusal leaves the old one drawn.
    auto made = isoscope::api::Isosurface::create(context, *volume, {newMethod, newWeld});
    if (!made) {
        setMode(mode);
        throw Failure(std::string("the isosurface by ") + isoscope::api::methodName(newMethod) +
                      (newWeld ? "" : " unwelded") + ": " + made.error().message);
    }
    surface.reset();
    surface = std::move(*made);
    method = newMethod;
    weld = newWeld;
    require(surface->setIsovalue(iso), "the isovalue");
    setMode(mode);
}

bool ViewerScene::stepCalibration(double budgetMs)
{
    if (!calibrating)
        return false;
    auto start = std::chrono::steady_clock::now();
    do {
        auto step = raycast->calibrateStep(extent, camera);
        if (!step) { // no timestamps, say: the mode falls back to one invocation per ray
            setMode(Mode::IsoStandard);
            throw Failure("calibrating iso-auto's cost model: " + step.error().message);
        }
        calibration = *step;
        if (calibration.finished()) {
            setMode(mode); // now calibrated: the cost model picks the mapping
            return true;
        }
    } while (std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() < budgetMs);
    return false;
}

void ViewerScene::setIsovalue(float value)
{
    // Read when the next frame records: no wait, the frames in flight keep theirs.
    require(surface->setIsovalue(value), "the isovalue");
    require(raycast->setIsovalue(value), "the raycast's isovalue");
    iso = value;
}

void ViewerScene::setTransferFunction(const std::string& presetOrPath)
{
    // An upload of its own on the queue the frames use: after the frames in flight.
    require(dvr->setTransferFunction(presetOrPath), "the transfer function " + presetOrPath);
    transferFunction = presetOrPath;
    tfPoints = dvr->transferFunction();
}

void ViewerScene::setTransferPoints(const isoscope::api::TransferPoints& points)
{
    require(dvr->setTransferFunction(points), "the edited transfer function");
    transferFunction.clear();
    tfPoints = points;
}

void ViewerScene::setClip(const std::optional<isoscope::api::ClipBox>& box)
{
    // Read when the next frame records, as the isovalue.
    isoscope::api::ClipBox whole;
    require(raycast->setClipBox(box.value_or(whole)), "the raycast's clip box");
    require(dvr->setClipBox(box.value_or(whole)), "the volume rendering's clip box");
    clip = box;
}

ViewerScene createViewerScene(isoscope::api::Context& context, const Options& options, VkExtent2D extent)
{
    ViewerScene scene{context};
    scene.mode = options.mode;
    scene.method = options.method;
    scene.weld = options.weld;
    scene.transferFunction = options.transferFunction;
    isoscope::api::RendererOptions rendererOptions;
    rendererOptions.framesInFlight = 2;
    rendererOptions.extent = extent;
    rendererOptions.clear = true;
    scene.renderer = take(isoscope::api::Renderer::create(context, rendererOptions), "the renderer");
    scene.extent = extent;
    scene.calibrateBetweenFrames = !options.headless;
    if (options.headless)
        scene.load(options.volume, options.iso);
    return scene;
}

} // namespace viewer
