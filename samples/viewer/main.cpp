// isoscope-viewer: point it at a scan and look. A GLFW window with Dear
// ImGui panels over isoscope's frame, through the public API only
// (isoscope::api), on the host code it shares with samples/embed
// (samples/common). See viewer_loop.h for the frame loop.
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>

#include <isoscope/isoscope.h>

#include "check.h"
#include "frame_slots.h"
#include "host_device.h"
#include "host_instance.h"
#include "imgui_layer.h"
#include "options.h"
#include "panels.h"
#include "script.h"
#include "viewer_loop.h"
#include "viewer_scene.h"
#include "window.h"

namespace {

using namespace viewer;
using samplehost::Failure;

void run(const Options& options, samplehost::ValidationLog& log)
{
    std::optional<samplehost::Display> display;
    if (!options.headless) {
        display.emplace();
        if (!display->open)
            throw Failure("no display to open a window on (is DISPLAY set, is the X server running?): "
                          "run it in a desktop session, under xvfb-run, or with --headless --screenshot FILE.png");
    }
    bool windowed = !options.headless;
    if (windowed && !options.screenshot.empty() && !options.frames)
        throw OptionError("--screenshot writes the last frame: give --frames N with it (or press S in the window)");
    VkExtent2D extent = options.size.value_or(windowed ? VkExtent2D{1024, 720} : VkExtent2D{512, 512});
    std::vector<ScriptStep> script = options.script.empty() ? std::vector<ScriptStep>{} : loadScript(options.script);

    auto instance = samplehost::createHostInstance(
        "isoscope-viewer", options.validation,
        windowed ? samplehost::windowInstanceExtensions() : std::vector<const char*>{}, log);
    auto host = samplehost::createHostDevice(instance->instance, windowed);
    std::unique_ptr<samplehost::Window> window;
    if (windowed) {
        window = samplehost::createWindow(instance->instance, host->physical, host->device, host->family, extent,
                                          "isoscope viewer");
        window->vsync = options.vsync;
        if (!options.vsync)
            window->recreateSwapchain();
        extent = window->extent; // the window system (and HiDPI) may have its own idea of the size
    }
    auto slots = samplehost::createFrameSlots(host->physical, host->device, host->family, 2, extent, windowed);
    // The lock on the queue: a volume opened in the window loads on a worker thread (volume_loader.h).
    std::mutex queueMutex;
    isoscope::api::HostVulkan vulkan{host->instance, host->physical, host->device, host->family, host->queue};
    vulkan.queueMutex = &queueMutex;
    std::optional<isoscope::api::Context> context =
        samplehost::take(isoscope::api::Context::wrap(vulkan, *host->setup), "isoscope on the host's device");
    std::optional<ViewerScene> scene;
    scene.emplace(createViewerScene(*context, options, extent));
    std::unique_ptr<ImGuiLayer> imgui;
    if (windowed)
        imgui = std::make_unique<ImGuiLayer>(*host, *window, *slots);

    ViewerLoop loop{*host, *slots, *scene, options, std::move(script), window.get(), imgui.get()};
    LoopResult result = runViewer(loop);
    std::printf("device: %s, subgroup size %u, frames: %" PRIu64 "\n", context->deviceName().c_str(),
                context->subgroupSize(), result.frames);
    if (result.lastMesh)
        std::printf("last frame: mode %s, method %s%s, isovalue %.9g, %" PRIu64 " %s, %" PRIu64 " vertices%s\n",
                    modeName(scene->mode), isoscope::api::methodName(scene->method), scene->weld ? "" : " unwelded",
                    result.lastIso, result.lastMesh->faces, result.lastMesh->faceSize == 4 ? "quads" : "triangles",
                    result.lastMesh->vertices, result.lastMesh->overflowed ? " (overflowed: drew what fit)" : "");
    if (scene->mode == Mode::IsoAuto && scene->loaded() && scene->raycast->calibrated())
        std::printf("iso-auto: the last frame ran %s\n",
                    scene->raycast->lastMapping() == isoscope::api::RayMapping::Subgroup ? "iso-warp" : "iso-standard");
    std::printf("%s\n", memoryLine(context->memory()).c_str()); // the overlay's line, for scripts
    imgui.reset();
    scene.reset(); // isoscope's objects before the context, the context before the device
    context.reset();
}

} // namespace

int main(int argc, char** argv)
{
    return samplehost::runSample("isoscope-viewer", usage(), [&](samplehost::ValidationLog& log) {
        Options options = parseOptions(argc, argv);
        if (options.help)
            std::printf("%s\nkeys in the window (the help overlay, F1):\n%s\n", usage(), kKeyHelp);
        else
            run(options, log);
    });
}
