#pragma once
// The command line of isoscope_embed. parseOptions throws OptionError with a
// message naming the bad option; main() prints it with the usage and exits 2.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include <vulkan/vulkan_core.h>

#include "sample_main.h"

namespace embed {

enum class SurfaceKind { Mesh, Raycast, Dvr };
enum class SceneKind { Host, Isoscope, Both };

struct Options {
    bool help = false;
    bool headless = false;
    bool validation = false;
    bool animate = false;
    float animateSpan = 0.2f; // the sine's amplitude, a fraction of the volume's value range
    bool cubeInFront = false;
    bool timings = false;
    uint32_t framesInFlight = 2;
    std::string volume = "sphere:64";
    SurfaceKind surface = SurfaceKind::Mesh;
    SceneKind scene = SceneKind::Both;
    std::optional<float> iso;              // unset: the middle of the volume's value range
    float azimuthDeg = 30.0f;
    float elevationDeg = 20.0f;
    std::optional<VkExtent2D> size;        // unset: 512x512 windowed, 256x256 headless
    std::optional<uint64_t> frames;        // unset: 10 headless, until closed windowed
    std::string output;                    // headless: the PNG of the last frame
};

using OptionError = samplehost::UsageError; // main() prints it with the usage and exits 2

Options parseOptions(int argc, char** argv);
const char* usage();

} // namespace embed
