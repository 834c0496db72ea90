#pragma once
// --script: what the viewer does at each frame, for tests and recordings.
// Line n (from 0) holds frame n's actions, separated by ';':
//   iso 0.42; mode dvr; method scan; weld off; resize 640x480; open scan.nrrd
//   clip -1 -1 -1 0 1 1; clip off           (world units, as the panel's box)
//   tf ct; tf-opacity 0.5 0.8; tf-color 0.5 1 0 0; tf-remove-opacity 0.5;
//   tf-remove-color 0.5; tf-save edited.json   (the editor's edits, in order)
// An empty line or a line starting with '#' does nothing that frame.
// After resize WxH the next line waits until the window has that size.
#include <array>
#include <optional>
#include <string>
#include <vector>

#include <vulkan/vulkan_core.h>

#include <isoscope/raycast.h>

#include "options.h"

namespace viewer {

// One edit of the transfer function's points (tf_points.h), at `value`.
struct TfEdit {
    enum Kind { Opacity, Color, RemoveOpacity, RemoveColor } kind = Opacity;
    double value = 0.0;
    std::array<double, 3> data{}; // Opacity: alpha first; Color: r, g, b
};

struct ScriptStep {
    std::optional<float> iso;
    std::optional<Mode> mode;
    std::optional<isoscope::api::Method> method;
    std::optional<bool> weld;
    std::optional<VkExtent2D> resize; // the window's new size (windowed runs)
    std::optional<std::optional<isoscope::api::ClipBox>> clip; // a box, or none (clip off)
    std::optional<std::string> open;                            // a volume to open, as a dropped file
    std::optional<std::string> transferFunction;                // a preset or file
    std::vector<TfEdit> tfEdits;
    std::optional<std::string> tfSave;
};

// Throws OptionError naming the file, the line and what it could not read.
std::vector<ScriptStep> loadScript(const std::string& path);

} // namespace viewer
