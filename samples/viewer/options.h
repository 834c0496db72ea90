#pragma once
// The command line of isoscope-viewer. parseOptions throws OptionError
// naming the bad option; main() prints it with the usage and exits 2.
#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <vulkan/vulkan_core.h>

#include "sample_main.h"

#include <isoscope/isosurface.h>

namespace viewer {

// What a frame draws: the extracted mesh, the isosurface raycast (one
// invocation or one subgroup per ray, or per frame whichever the cost model
// calibrated on this device predicts faster for the view), volume rendering,
// or mesh and volume rendering composited by depth.
enum class Mode { Mesh, IsoStandard, IsoWarp, IsoAuto, Dvr, MeshDvr };
constexpr Mode kModes[] = {Mode::Mesh, Mode::IsoStandard, Mode::IsoWarp, Mode::IsoAuto, Mode::Dvr, Mode::MeshDvr};
const char* modeName(Mode mode); // as --mode spells it

struct Options {
    bool help = false;
    bool headless = false;   // no window and no UI: the frames go to --screenshot only
    bool validation = false;
    bool vsync = true;
    std::string volume = "sphere:64";
    std::optional<float> iso;                 // unset: the middle of the volume's value range
    isoscope::api::Method method = isoscope::api::Method::Block;
    bool weld = true;
    Mode mode = Mode::Mesh;
    std::string transferFunction = "grayscale"; // a preset, a ParaView .json or a text file
    std::array<float, 2> camera{30.0f, 20.0f}; // azimuth, elevation (degrees)
    std::optional<VkExtent2D> size;           // unset: 1024x720 windowed, 512x512 headless
    std::optional<uint64_t> frames;           // unset: until the window closes (10 headless)
    std::string screenshot;                   // the last frame as a PNG, UI included
    std::string script;                       // a file of actions, one line per frame (script.h)
};

using OptionError = samplehost::UsageError; // main() prints it with the usage and exits 2

Options parseOptions(int argc, char** argv);
// The pieces, for --script's lines too; `option` names what is parsed in the message.
float parseFloat(std::string_view option, const std::string& text);
uint64_t parseCount(std::string_view option, const std::string& text);
VkExtent2D parseSize(const std::string& text);
isoscope::api::Method parseMethod(const std::string& text);
Mode parseMode(const std::string& text);
bool parseOnOff(std::string_view option, const std::string& text);
const char* usage();

} // namespace viewer
