#pragma once
// --script: what the viewer does at each frame, for tests and recordings.
// Line n (from 0) holds frame n's actions, separated by ';':
//   iso 0.42; mode dvr; method scan; weld off; resize 640x480
// An empty line or a line starting with '#' does nothing that frame.
#include <optional>
#include <string>
#include <vector>

#include <vulkan/vulkan_core.h>

#include "options.h"

namespace viewer {

struct ScriptStep {
    std::optional<float> iso;
    std::optional<Mode> mode;
    std::optional<isoscope::api::Method> method;
    std::optional<bool> weld;
    std::optional<VkExtent2D> resize; // the window's new size (windowed runs)
};

// Throws OptionError naming the file, the line and what it could not read.
std::vector<ScriptStep> loadScript(const std::string& path);

} // namespace viewer
