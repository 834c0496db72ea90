#pragma once
// The viewer's Dear ImGui panels: the volume's info, the isovalue slider
// over its histogram, method and mode, the clip box, the transfer-function
// editor (tf_editor.h), the statistics overlay (GPU time per pass, the
// mesh's counts, device memory in use) and the help overlay. They only read the scene and
// return what the person asked for; the frame loop applies it between frames.
#include <optional>
#include <string>
#include <vector>

#include <isoscope/isoscope.h>

#include "options.h"
#include "tf_editor.h"
#include "viewer_scene.h"
#include "volume_loader.h"

namespace viewer {

// What the overlay shows, read from frames that finished (no stall).
struct FrameStats {
    double frameMs = 0.0;                              // CPU time between presents
    std::vector<isoscope::api::PassTime> passes;       // GPU ms per pass
    std::optional<isoscope::api::MeshCounts> mesh;     // the mesh drawn, when the mode draws one
    float meshIso = 0.0f;                              // the isovalue that mesh was extracted at
};

struct UiState {
    bool showHelp = false;
    bool logHistogram = true;
    bool vsync = true;
    bool orthographic = false;
    std::string status; // the last action's result (a screenshot's path, an error)
    TfEditorState tfEditor;
};

struct UiRequests {
    std::optional<float> iso;
    std::optional<Mode> mode;
    std::optional<isoscope::api::Method> method;
    std::optional<bool> weld;
    std::optional<std::string> transferFunction;        // a preset or file
    std::optional<isoscope::api::TransferPoints> transferPoints; // edited points
    std::optional<std::string> saveTransferFunction;     // a file to write the points to
    std::optional<std::optional<isoscope::api::ClipBox>> clip; // a box, or none
    std::optional<std::string> open;                     // a volume to open (--script open)
    bool toggleVsync = false;
    bool toggleOrthographic = false;
    bool resetView = false;
};

// The overlay's device-memory line: isoscope's own allocations, and the
// device's usage and budget where it reports VK_EXT_memory_budget.
std::string memoryLine(const isoscope::api::DeviceMemory& memory);

// A window over the frame saying what the worker thread is loading and how far it got.
void drawLoadProgress(const VolumeLoader::Progress& progress);
// The same for iso-auto's calibration, run between frames.
void drawCalibrationProgress(const isoscope::api::CalibrationProgress& progress);

void drawPanels(const ViewerScene& scene, const FrameStats& stats, UiState& ui, UiRequests& requests);

// The keys, for the help overlay and the README.
extern const char* const kKeyHelp;

} // namespace viewer
