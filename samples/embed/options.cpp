#include "options.h"

#include <charconv>
#include <cmath>
#include <string_view>

namespace embed {
namespace {

template <typename T>
T parseNumber(std::string_view option, std::string_view text)
{
    T value{};
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size())
        throw OptionError(std::string(option) + " takes a number, not '" + std::string(text) + "'");
    if constexpr (std::is_floating_point_v<T>)
        if (!std::isfinite(value))
            throw OptionError(std::string(option) + " takes a finite number, not '" + std::string(text) + "'");
    return value;
}

VkExtent2D parseSize(std::string_view text)
{
    size_t x = text.find('x');
    if (x == std::string_view::npos)
        throw OptionError("--size takes WIDTHxHEIGHT (e.g. 512x512), not '" + std::string(text) + "'");
    uint32_t width = parseNumber<uint32_t>("--size", text.substr(0, x));
    uint32_t height = parseNumber<uint32_t>("--size", text.substr(x + 1));
    if (width == 0 || height == 0 || width > 8192 || height > 8192)
        throw OptionError("--size " + std::string(text) + " is out of range (1 to 8192 each way)");
    return {width, height};
}

template <typename E>
E parseChoice(std::string_view option, std::string_view text, std::initializer_list<std::pair<std::string_view, E>> choices)
{
    std::string names;
    for (auto& [name, value] : choices) {
        if (text == name)
            return value;
        if (!names.empty())
            names += '|';
        names += name;
    }
    throw OptionError(std::string(option) + " takes " + names + ", not '" + std::string(text) + "'");
}

void checkCombinations(const Options& o)
{
    if (!(o.animateSpan >= 0.0f && o.animateSpan <= 1.0f))
        throw OptionError("--animate-span is a fraction of the value range: give a number from 0 to 1");
    if (o.surface == SurfaceKind::Dvr && o.animate)
        throw OptionError("--animate changes the isovalue every frame: it needs --surface mesh or raycast, not dvr");
    if (!o.output.ends_with(".png") && !o.output.empty())
        throw OptionError("-o " + o.output + ": the image is written as PNG, name it *.png");
    if (o.headless && o.frames && *o.frames == 0)
        throw OptionError("--frames 0: a headless run needs at least one frame");
}

} // namespace

Options parseOptions(int argc, char** argv)
{
    Options o;
    for (int i = 1; i < argc; ++i) {
        std::string_view arg = argv[i];
        auto next = [&]() -> std::string_view {
            if (i + 1 >= argc)
                throw OptionError(std::string(arg) + " needs a value");
            return argv[++i];
        };
        if (arg == "-h" || arg == "--help") o.help = true;
        else if (arg == "--headless") o.headless = true;
        else if (arg == "--validation") o.validation = true;
        else if (arg == "--animate") o.animate = true;
        else if (arg == "--cube-in-front") o.cubeInFront = true;
        else if (arg == "--timings") o.timings = true;
        else if (arg == "--volume") o.volume = next();
        else if (arg == "--iso") o.iso = parseNumber<float>(arg, next());
        else if (arg == "--animate-span") o.animateSpan = parseNumber<float>(arg, next());
        else if (arg == "--azimuth") o.azimuthDeg = parseNumber<float>(arg, next());
        else if (arg == "--elevation") o.elevationDeg = parseNumber<float>(arg, next());
        else if (arg == "--size") o.size = parseSize(next());
        else if (arg == "--frames") o.frames = parseNumber<uint64_t>(arg, next());
        else if (arg == "-o" || arg == "--output") o.output = next();
        else if (arg == "--frames-in-flight") {
            o.framesInFlight = parseNumber<uint32_t>(arg, next());
            if (o.framesInFlight != 2 && o.framesInFlight != 3)
                throw OptionError("--frames-in-flight takes 2 or 3, not " + std::to_string(o.framesInFlight));
        } else if (arg == "--surface")
            o.surface = parseChoice<SurfaceKind>(arg, next(), {{"mesh", SurfaceKind::Mesh}, {"raycast", SurfaceKind::Raycast}, {"dvr", SurfaceKind::Dvr}});
        else if (arg == "--scene")
            o.scene = parseChoice<SceneKind>(arg, next(), {{"host", SceneKind::Host}, {"isoscope", SceneKind::Isoscope}, {"both", SceneKind::Both}});
        else
            throw OptionError("unknown option '" + std::string(arg) + "'");
    }
    if (o.elevationDeg <= -90.0f || o.elevationDeg >= 90.0f)
        throw OptionError("--elevation " + std::to_string(o.elevationDeg) + " is out of range (-90 to 90, exclusive)");
    checkCombinations(o);
    return o;
}

const char* usage()
{
    return "usage: isoscope_embed [options]\n"
           "  A host renderer (ground plane, cubes) with isoscope's passes in its frame.\n"
           "  --headless                 render offscreen (also when no display exists)\n"
           "  --frames N                 frames to render (headless: default 10; windowed: until closed)\n"
           "  -o, --output FILE.png      headless: write the last frame\n"
           "  --size WxH                 target size (default 512x512 windowed, 256x256 headless)\n"
           "  --frames-in-flight 2|3     frame slots (default 2)\n"
           "  --volume SPEC              a file or a synthetic spec (default sphere:64)\n"
           "  --surface mesh|raycast|dvr what isoscope draws (default mesh)\n"
           "  --scene host|isoscope|both what the frame holds (default both)\n"
           "  --iso V                    isovalue (default: the middle of the value range);\n"
           "                             dvr: the centre of the transfer function's shell\n"
           "  --animate                  the isovalue changes every frame\n"
           "  --animate-span F           its sine's amplitude as a fraction of the value range (0.2)\n"
           "  --azimuth DEG              camera azimuth about z from +x (default 30)\n"
           "  --elevation DEG            camera elevation (default 20)\n"
           "  --cube-in-front            a magenta cube between the camera and the volume\n"
           "  --validation               Khronos validation with synchronization validation;\n"
           "                             exit code 3 when it reports anything\n"
           "  --timings                  print isoscope's GPU ms per pass, medians over the frames after\n"
           "                             the first fifth (JSON)\n"
           "  env ISOSCOPE_DEVICE        a substring of the Vulkan device's name (default: the first)\n";
}

} // namespace embed
