// isoscope_embed: a game-style host renderer that owns the Vulkan instance,
// device, frame loop and window, and adds isoscope's passes to its frame
// through the public API only (isoscope::api). See frame_loop.h for how the
// frames are synchronized and frame_record.h for what one frame records.
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <optional>

#include <isoscope/isoscope.h>

#include "check.h"
#include "frame_loop.h"
#include "frame_slots.h"
#include "host_device.h"
#include "host_instance.h"
#include "host_scene.h"
#include "isoscope_scene.h"
#include "options.h"
#include "scene_layout.h"
#include "window.h"

namespace {

using namespace embed;

void run(const Options& options, ValidationLog& log)
{
    std::optional<Display> display;
    if (!options.headless)
        display.emplace();
    bool windowed = display && display->open;
    if (!options.headless && !windowed)
        std::fprintf(stderr, "isoscope_embed: no display: running headless\n");
    if (windowed && !options.output.empty())
        throw OptionError("-o writes the last frame of a headless run: add --headless");
    VkExtent2D extent = options.size.value_or(windowed ? VkExtent2D{512, 512} : VkExtent2D{256, 256});

    auto instance = createHostInstance("isoscope_embed", options.validation, windowed ? windowInstanceExtensions() : std::vector<const char*>{}, log);
    auto host = createHostDevice(instance->instance, windowed);
    std::unique_ptr<Window> window;
    if (windowed) {
        window = createWindow(instance->instance, host->physical, host->device, host->family, extent, "isoscope embed");
        extent = window->extent; // the window system may have its own idea of the size
    }
    auto isoscope = createIsoscopeScene(*host, options, extent);
    SceneView view = layoutScene(*isoscope->volume, extent, options.azimuthDeg, options.elevationDeg, options.cubeInFront);
    if (isoscope->renderer)
        require(isoscope->renderer->setCamera(view.camera), "setting the camera");
    auto hostScene = createHostScene(host->device);
    auto slots = createFrameSlots(host->physical, host->device, host->family, options.framesInFlight, extent, windowed);

    PassTimes timings(options.frames.value_or(10) / 5); // the first fifth warms up
    FrameLoop loop{*host, *slots, options.scene == SceneKind::Isoscope ? nullptr : hostScene.get(), *isoscope, view, options,
                   options.timings ? &timings : nullptr};
    isoscope::api::Image image;
    LoopStats stats = windowed ? runWindowed(loop, *window, options.frames)
                               : runHeadless(loop, options.frames.value_or(10), options.output.empty() ? nullptr : &image);

    std::printf("device: %s, frames: %" PRIu64 ", cpu ms/frame: %.3f (wait, record, submit), wall ms/frame: %.3f\n",
                host->name.c_str(), stats.frames, stats.recordMsPerFrame, stats.wallMsPerFrame);
    if (options.timings) {
        timings.print();
        if (isoscope->surface) { // the last frame's mesh, extracted once more to count it
            auto mesh = take(isoscope->surface->extract(isoscope->surface->isovalue()), "counting the mesh");
            std::printf("last frame: isovalue %g, %zu triangles, %zu vertices\n", isoscope->surface->isovalue(),
                        mesh.indices.size() / 3, mesh.positions.size());
        }
    }
    if (!image.rgba.empty()) {
        require(isoscope::api::writePng(image, options.output), "writing " + options.output);
        std::printf("wrote %s (%ux%u)\n", options.output.c_str(), image.width, image.height);
    }
}

} // namespace

int main(int argc, char** argv)
{
    return samplehost::runSample("isoscope_embed", usage(), [&](ValidationLog& log) {
        Options options = parseOptions(argc, argv);
        if (options.help)
            std::fputs(usage(), stdout);
        else
            run(options, log);
    });
}
