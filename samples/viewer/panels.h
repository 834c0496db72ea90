#pragma once
// The viewer's Dear ImGui panels: the volume's info, the isovalue slider
// over its histogram, method and mode, the transfer-function presets, the
// statistics overlay and the help overlay. They only read the scene and
// return what the person asked for; the frame loop applies it between frames.
#include <optional>
#include <string>
#include <vector>

#include <isoscope/isoscope.h>

#include "options.h"
#include "viewer_scene.h"

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
};

struct UiRequests {
    std::optional<float> iso;
    std::optional<Mode> mode;
    std::optional<isoscope::api::Method> method;
    std::optional<bool> weld;
    std::optional<std::string> transferFunction;
    bool toggleVsync = false;
    bool toggleOrthographic = false;
    bool resetView = false;
};

void drawPanels(const ViewerScene& scene, const FrameStats& stats, UiState& ui, UiRequests& requests);

// The keys, for the help overlay and the README.
extern const char* const kKeyHelp;

} // namespace viewer
