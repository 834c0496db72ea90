#pragma once
// The host's frame loop, headless or windowed. Frame n records into slot
// n % framesInFlight after waiting on that slot's fence, so at most
// framesInFlight frames are on the GPU and each owns its command buffer and
// its offscreen colour and depth; isoscope's per-frame resources rotate with
// the same frame number.
#include <cstdint>
#include <optional>

#include <isoscope/renderer.h>

#include "frame_slots.h"
#include "host_device.h"
#include "host_scene.h"
#include "isoscope_scene.h"
#include "options.h"
#include "pass_times.h"
#include "scene_layout.h"
#include "window.h"

namespace embed {
using namespace samplehost; // the host code shared with the viewer (samples/common)

struct FrameLoop {
    HostDevice& host;
    FrameSlots& slots;
    const HostScene* hostScene;   // null with --scene isoscope
    IsoscopeScene& isoscope;
    SceneView view;
    const Options& options;
    PassTimes* timings = nullptr; // with --timings
};

struct LoopStats {
    uint64_t frames = 0;
    double recordMsPerFrame = 0.0; // CPU: waiting for the slot, recording, submitting
    double wallMsPerFrame = 0.0;   // from the first frame's start to the last one's end on the GPU
};

// Renders `frames` frames; with `image`, reads the last one back into it.
LoopStats runHeadless(FrameLoop& loop, uint64_t frames, isoscope::api::Image* image);
// Until the window closes, or `frames` frames when given.
LoopStats runWindowed(FrameLoop& loop, Window& window, std::optional<uint64_t> frames);

} // namespace embed
