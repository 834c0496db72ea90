#include "options.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string_view>

namespace viewer {

float parseFloat(std::string_view option, const std::string& text)
{
    char* end = nullptr;
    float value = std::strtof(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(value))
        throw OptionError(std::string(option) + " takes a finite number, not '" + text + "'");
    return value;
}

uint64_t parseCount(std::string_view option, const std::string& text)
{
    char* end = nullptr;
    unsigned long long value = std::strtoull(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || text[0] == '-' || value == 0)
        throw OptionError(std::string(option) + " takes a positive whole number, not '" + text + "'");
    return value;
}

VkExtent2D parseSize(const std::string& text)
{
    size_t x = text.find('x');
    if (x == std::string::npos)
        throw OptionError("--size takes WxH (e.g. 800x600), not '" + text + "'");
    uint64_t width = parseCount("--size", text.substr(0, x)), height = parseCount("--size", text.substr(x + 1));
    if (width > 8192 || height > 8192)
        throw OptionError("--size " + text + " is larger than 8192x8192");
    return {uint32_t(width), uint32_t(height)};
}

namespace {

std::array<float, 2> parseCamera(const std::string& text)
{
    size_t comma = text.find(',');
    if (comma == std::string::npos)
        throw OptionError("--camera takes AZ,EL in degrees (e.g. 30,20), not '" + text + "'");
    float elevation = parseFloat("--camera", text.substr(comma + 1));
    if (elevation <= -90.0f || elevation >= 90.0f)
        throw OptionError("--camera: the elevation " + text.substr(comma + 1) + " must lie strictly between -90 and 90");
    return {parseFloat("--camera", text.substr(0, comma)), elevation};
}

} // namespace

isoscope::api::Method parseMethod(const std::string& text)
{
    std::string known;
    for (isoscope::api::Method method : isoscope::api::methods()) {
        if (text == isoscope::api::methodName(method))
            return method;
        known += (known.empty() ? "" : ", ") + std::string(isoscope::api::methodName(method));
    }
    throw OptionError("--method " + text + ": give one of " + known);
}

Mode parseMode(const std::string& text)
{
    for (Mode mode : kModes)
        if (text == modeName(mode))
            return mode;
    throw OptionError("--mode " + text + ": give mesh, iso-standard, iso-warp, iso-auto, dvr or mesh+dvr");
}

bool parseOnOff(std::string_view option, const std::string& text)
{
    if (text == "on" || text == "off")
        return text == "on";
    throw OptionError(std::string(option) + " takes on or off, not '" + text + "'");
}

const char* modeName(Mode mode)
{
    switch (mode) {
    case Mode::Mesh: return "mesh";
    case Mode::IsoStandard: return "iso-standard";
    case Mode::IsoWarp: return "iso-warp";
    case Mode::IsoAuto: return "iso-auto";
    case Mode::Dvr: return "dvr";
    case Mode::MeshDvr: return "mesh+dvr";
    }
    return "";
}

Options parseOptions(int argc, char** argv)
{
    Options options;
    bool haveVolume = false;
    for (int i = 1; i < argc; ++i) {
        std::string_view arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc)
                throw OptionError(std::string(arg) + " needs a value");
            return argv[++i];
        };
        if (arg == "-h" || arg == "--help")
            options.help = true;
        else if (arg == "--headless")
            options.headless = true;
        else if (arg == "--validation")
            options.validation = true;
        else if (arg == "--no-vsync")
            options.vsync = false;
        else if (arg == "--iso")
            options.iso = parseFloat(arg, value());
        else if (arg == "--method")
            options.method = parseMethod(value());
        else if (arg == "--no-weld")
            options.weld = false;
        else if (arg == "--mode")
            options.mode = parseMode(value());
        else if (arg == "--tf")
            options.transferFunction = value();
        else if (arg == "--camera")
            options.camera = parseCamera(value());
        else if (arg == "--size")
            options.size = parseSize(value());
        else if (arg == "--frames")
            options.frames = parseCount(arg, value());
        else if (arg == "--screenshot")
            options.screenshot = value();
        else if (arg == "--script")
            options.script = value();
        else if (!arg.empty() && arg[0] == '-')
            throw OptionError("unknown option " + std::string(arg));
        else if (haveVolume)
            throw OptionError("one volume only; got '" + options.volume + "' and '" + std::string(arg) + "'");
        else {
            options.volume = arg;
            haveVolume = true;
        }
    }
    if (options.headless && options.screenshot.empty())
        throw OptionError("--headless draws no window: give --screenshot FILE.png for its last frame");
    return options;
}

const char* usage()
{
    return "usage: isoscope-viewer [VOLUME] [options]\n"
           "  VOLUME              a file or folder the engine reads, or a synthetic spec (default sphere:64)\n"
           "  --iso V             isovalue in the data's units (default: the middle of its range)\n"
           "  --method M          block, scan, histopyramid or dual (quads) (default block)\n"
           "  --no-weld           keep each method's duplicate vertices\n"
           "  --mode M            mesh, iso-standard, iso-warp, iso-auto, dvr or mesh+dvr (default mesh)\n"
           "  --tf T              DVR transfer function: a preset (ct, grayscale, cayley), a ParaView .json or a text file\n"
           "  --camera AZ,EL      the camera's azimuth and elevation in degrees (default 30,20)\n"
           "  --size WxH          the window's (or headless image's) size\n"
           "  --frames N          stop after N frames\n"
           "  --screenshot F.png  write the last frame (with the UI when windowed)\n"
           "  --script FILE       actions per frame, one line each (';' between): iso V; mode M; method M; weld on|off;\n"
           "                      resize WxH; open VOLUME; clip X0 Y0 Z0 X1 Y1 Z1 | clip off; tf PRESET|FILE; tf-opacity V A;\n"
           "                      tf-color V R G B; tf-remove-opacity V; tf-remove-color V; tf-save FILE\n"
           "  --headless          no window and no UI (needs --screenshot)\n"
           "  --no-vsync          present without waiting for the display (V toggles it)\n"
           "  --validation        Khronos validation and synchronization validation; any message exits 3\n";
}

} // namespace viewer
