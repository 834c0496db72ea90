#pragma once
// The viewer's frame loop, windowed (GLFW, ImGui, mouse and keys) or
// headless. Frame n records into slot n % 2 after waiting on its fence, so
// frame n - 2 has finished: its pass times and mesh counts are read then,
// never stalling. Changes asked for (the UI, the keys, --script) apply
// between frames; the isovalue is read when the next frame records. A
// volume opened in the window (dropped, reloaded, --script open) loads on a
// worker thread (volume_loader.h) while the frames go on drawing the one
// shown with its progress over them, and so does the volume named on the
// command line (the frames clear until it is in); iso-auto's calibration
// runs a few of its frames between the window's, its progress shown. Those
// frames neither count towards --frames nor move --script on, and neither do
// the frames after a scripted resize until the window has taken that size.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frame_slots.h"
#include "host_device.h"
#include "imgui_layer.h"
#include "options.h"
#include "orbit.h"
#include "panels.h"
#include "script.h"
#include "viewer_scene.h"
#include "volume_loader.h"
#include "window.h"

namespace viewer {

struct ViewerLoop {
    samplehost::HostDevice& host;
    samplehost::FrameSlots& slots;
    ViewerScene& scene;
    const Options& options;
    std::vector<ScriptStep> script;
    samplehost::Window* window = nullptr; // null when headless
    ImGuiLayer* imgui = nullptr;          // null when headless
    Orbit orbit;
    UiState ui;
    FrameStats stats;
    std::vector<float> slotIso;              // the isovalue each slot's frame extracted at
    std::vector<std::string> dropped;        // files dropped on the window, opened next frame
    std::string screenshotNext;              // a PNG the next frame is read back into
    VolumeLoader loader;                     // a volume loading on a worker thread (windowed)
    std::optional<float> pendingIso;         // the isovalue it opens at (unset: its middle)
    uint64_t framesWhileLoading = 0;
    uint64_t framesWhileCalibrating = 0;      // iso-auto's calibration, between frames
    std::optional<VkExtent2D> awaitedSize;   // a scripted resize the window has not taken yet
    std::chrono::steady_clock::time_point awaitedUntil;
};

struct LoopResult {
    uint64_t frames = 0;
    std::optional<isoscope::api::MeshCounts> lastMesh; // the last frame's mesh, when the mode draws one
    float lastIso = 0.0f;
};

LoopResult runViewer(ViewerLoop& loop);

} // namespace viewer
