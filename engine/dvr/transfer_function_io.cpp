#include "dvr/transfer_function_io.h"

#include <algorithm>
#include <charconv>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/text.h"

namespace isoscope {

namespace {

using nlohmann::json;

// A transfer function is a few kilobytes; anything this large is the wrong file.
constexpr uintmax_t kMaxTransferFunctionBytes = 16u << 20;

std::string number(double value)
{
    std::ostringstream text;
    text << value;
    return text.str();
}

bool unitInterval(double component) { return std::isfinite(component) && component >= 0.0 && component <= 1.0; }

// Text safe to quote in a one-line message: at most 40 characters, control
// and non-ASCII bytes shown as '?'.
std::string printable(const std::string& text)
{
    std::string shown = text.substr(0, 40);
    for (char& c : shown)
        if (static_cast<unsigned char>(c) < 32 || static_cast<unsigned char>(c) > 126)
            c = '?';
    return text.size() > 40 ? shown + "..." : shown;
}

std::string readTextFile(const std::string& path)
{
    std::error_code error;
    std::filesystem::file_status status = std::filesystem::status(path, error);
    if (error || !std::filesystem::exists(status))
        fail("cannot read transfer function " + path + ": no such file (and no preset of that name)");
    if (!std::filesystem::is_regular_file(status))
        fail("cannot read transfer function " + path + ": it is not a regular file");
    uintmax_t size = std::filesystem::file_size(path, error);
    if (error || size > kMaxTransferFunctionBytes)
        fail("cannot read transfer function " + path + ": " + std::to_string(size) + " bytes, more than the " +
             std::to_string(kMaxTransferFunctionBytes) + " a transfer function file may have; the wrong file?");
    std::ifstream file(path, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    if (!file.good() && !file.eof())
        fail("cannot read transfer function " + path + ": reading failed");
    return text;
}

// ---- ParaView JSON ---------------------------------------------------------

// Where in the file a number is, for messages: "RGBPoints[6] (g of point 1)".
std::string where(const char* key, size_t index, const char* const* fields)
{
    return std::string(key) + "[" + std::to_string(index) + "] (" + fields[index % 4] + " of point " +
           std::to_string(index / 4) + ")";
}

// The numbers of key, four per point, each one checked to be a finite number.
std::vector<double> readQuadruples(const json& preset, const std::string& source, const char* key,
                                   const char* const* fields)
{
    const json& array = preset.at(key);
    if (!array.is_array())
        fail(source + ": " + key + " is a " + array.type_name() + ", not an array of numbers");
    if (array.empty() || array.size() % 4 != 0)
        fail(source + ": " + key + " has " + std::to_string(array.size()) + " numbers, not a positive multiple of 4 (" +
             fields[0] + ", " + fields[1] + ", " + fields[2] + ", " + fields[3] + " per point)");
    std::vector<double> numbers(array.size());
    for (size_t i = 0; i < array.size(); ++i) {
        if (!array[i].is_number())
            fail(source + ": " + where(key, i, fields) + " is " + printable(array[i].dump()) + ", not a number");
        numbers[i] = array[i].get<double>();
        if (!std::isfinite(numbers[i]))
            fail(source + ": " + where(key, i, fields) + " is " + number(numbers[i]) + ", not a finite number");
        if (i % 4 == 0 && i >= 4 && numbers[i] < numbers[i - 4])
            fail(source + ": " + where(key, i, fields) + " is " + number(numbers[i]) + ", below the previous point's " +
                 number(numbers[i - 4]) + "; points must be sorted by value");
    }
    return numbers;
}

const json& selectPreset(const json& document, const std::string& source)
{
    if (document.is_array()) {
        if (document.empty())
            fail(source + ": an empty list of presets; export a colour map from ParaView into it");
        if (!document[0].is_object())
            fail(source + ": [0] is a " + std::string(document[0].type_name()) + ", not a preset object");
        return document[0];
    }
    if (!document.is_object())
        fail(source + ": a " + std::string(document.type_name()) +
             ", not a ParaView preset (an object with RGBPoints, or a list of them)");
    return document;
}

TransferFunction readParaViewPreset(const json& preset, const std::string& source)
{
    TransferFunction tf;
    tf.name = source;
    if (preset.contains("Name") && preset.at("Name").is_string() && !preset.at("Name").get<std::string>().empty())
        tf.name = preset.at("Name").get<std::string>();

    if (!preset.contains("RGBPoints")) {
        if (preset.contains("IndexedColors"))
            fail(source + ": the preset has IndexedColors (a categorical colour map), not RGBPoints; "
                          "export a continuous colour map");
        fail(source + ": the preset has no RGBPoints (value, r, g, b, …); is it a ParaView colour-map export?");
    }
    static const char* const colorFields[] = {"value", "r", "g", "b"};
    std::vector<double> rgb = readQuadruples(preset, source, "RGBPoints", colorFields);
    for (size_t i = 0; i < rgb.size(); ++i)
        if (i % 4 != 0 && !unitInterval(rgb[i]))
            fail(source + ": " + where("RGBPoints", i, colorFields) + " is " + number(rgb[i]) +
                 ", outside 0..1 (ParaView writes colours as 0..1)");
    for (size_t i = 0; i < rgb.size(); i += 4)
        tf.color.push_back({rgb[i], glm::vec3(float(rgb[i + 1]), float(rgb[i + 2]), float(rgb[i + 3]))});

    if (preset.contains("ColorSpace") && preset.at("ColorSpace").is_string() &&
        preset.at("ColorSpace") != "RGB")
        std::fprintf(stderr, "isoscope: %s: ColorSpace %s is interpolated in RGB here (exact at the control points)\n",
                     source.c_str(), preset.at("ColorSpace").dump().c_str());

    if (!preset.contains("Points")) {
        // ParaView's default opacity: a ramp over the colour range.
        tf.opacity = {{tf.color.front().value, 0.0f}, {tf.color.back().value, 1.0f}};
    } else {
        static const char* const opacityFields[] = {"value", "alpha", "midpoint", "sharpness"};
        std::vector<double> points = readQuadruples(preset, source, "Points", opacityFields);
        bool shaped = false;
        for (size_t i = 0; i < points.size(); i += 4) {
            if (!unitInterval(points[i + 1]))
                fail(source + ": " + where("Points", i + 1, opacityFields) + " is " + number(points[i + 1]) +
                     ", outside 0..1");
            shaped = shaped || points[i + 2] != 0.5 || points[i + 3] != 0.0;
            tf.opacity.push_back({points[i], float(points[i + 1])});
        }
        if (shaped)
            std::fprintf(stderr,
                         "isoscope: %s: opacity midpoints other than 0.5 or sharpness other than 0 are read as "
                         "linear between the points\n",
                         source.c_str());
    }
    checkTransferFunction(tf);
    return tf;
}

// ---- text ------------------------------------------------------------------

// The numbers of one line, up to a '#'.
std::vector<double> lineNumbers(std::string_view line, const std::string& at)
{
    line = line.substr(0, line.find('#'));
    std::vector<double> numbers;
    size_t position = 0;
    while (true) {
        position = line.find_first_not_of(" \t\r\f\v,", position);
        if (position == std::string_view::npos)
            break;
        size_t end = line.find_first_of(" \t\r\f\v,", position);
        std::string_view token = line.substr(position, end == std::string_view::npos ? line.size() - position
                                                                                     : end - position);
        std::string_view digits = token.starts_with('+') ? token.substr(1) : token; // from_chars takes no '+'
        double value = 0.0;
        auto [next, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
        if (error != std::errc() || next != digits.data() + digits.size() || !std::isfinite(value))
            fail(at + "'" + printable(std::string(token)) + "' is not a finite number; expected `value r g b a`");
        numbers.push_back(value);
        position += token.size();
    }
    return numbers;
}

} // namespace

TransferFunction parseParaViewTransferFunction(std::string_view text, const std::string& source)
{
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
        fail(source + ": the file is empty; expected a ParaView colour-map export (JSON)");
    json document;
    try {
        document = json::parse(text);
    } catch (const json::parse_error& error) {
        // "[json.exception.parse_error.101] parse error at line 3, column 1: syntax error …":
        // the line as file:line like every other message, then what is wrong.
        size_t line = 1 + size_t(std::count(text.begin(), text.begin() + std::min(error.byte, text.size()), '\n'));
        std::string message = error.what();
        size_t reason = message.find(": ", message.find("parse error"));
        fail(source + ":" + std::to_string(line) + ": not valid JSON: " +
             (reason == std::string::npos ? message : message.substr(reason + 2)));
    }
    return readParaViewPreset(selectPreset(document, source), source);
}

TransferFunction parseTextTransferFunction(std::string_view text, const std::string& source)
{
    TransferFunction tf;
    tf.name = source;
    static const char* const components[] = {"value", "r", "g", "b", "a"};
    size_t lineNumber = 0, previousLine = 0;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find('\n', start);
        std::string_view line = text.substr(start, end == std::string_view::npos ? text.size() - start : end - start);
        start = end == std::string_view::npos ? text.size() + 1 : end + 1;
        ++lineNumber;
        std::string at = source + ":" + std::to_string(lineNumber) + ": ";
        std::vector<double> numbers = lineNumbers(line, at);
        if (numbers.empty())
            continue;
        if (numbers.size() != 5)
            fail(at + "expected 5 numbers `value r g b a`, found " + std::to_string(numbers.size()));
        for (size_t i = 1; i < 5; ++i)
            if (!unitInterval(numbers[i]))
                fail(at + components[i] + " is " + number(numbers[i]) + ", outside 0..1");
        if (!tf.color.empty() && numbers[0] < tf.color.back().value)
            fail(at + "value " + number(numbers[0]) + " is below " + number(tf.color.back().value) + " on line " +
                 std::to_string(previousLine) + "; points must be sorted by value");
        previousLine = lineNumber;
        tf.color.push_back({numbers[0], glm::vec3(float(numbers[1]), float(numbers[2]), float(numbers[3]))});
        tf.opacity.push_back({numbers[0], float(numbers[4])});
    }
    if (tf.color.empty())
        fail(source + ": no control points; write one `value r g b a` line per point (components 0..1)");
    checkTransferFunction(tf);
    return tf;
}

TransferFunction readTransferFunction(const std::string& path)
{
    std::string text = readTextFile(path);
    if (lowercase(std::filesystem::path(path).extension().string()) == ".json")
        return parseParaViewTransferFunction(text, path);
    return parseTextTransferFunction(text, path);
}

std::string formatParaViewTransferFunction(const TransferFunction& tf)
{
    checkTransferFunction(tf);
    json rgb = json::array(), points = json::array();
    for (const ColorPoint& point : tf.color)
        rgb.insert(rgb.end(), {point.value, point.rgb.r, point.rgb.g, point.rgb.b});
    for (const OpacityPoint& point : tf.opacity)
        points.insert(points.end(), {point.value, point.alpha, 0.5, 0.0}); // linear: ParaView's midpoint and sharpness
    json preset = {{"Name", tf.name}, {"ColorSpace", "RGB"}, {"RGBPoints", rgb}, {"Points", points}};
    return json::array({preset}).dump(1) + "\n";
}

std::string formatTextTransferFunction(const TransferFunction& tf)
{
    checkTransferFunction(tf);
    std::vector<double> values;
    for (const ColorPoint& point : tf.color)
        values.push_back(point.value);
    for (const OpacityPoint& point : tf.opacity)
        values.push_back(point.value);
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    std::string text = "# value r g b a (isoscope transfer function: " + printable(tf.name) + ")\n";
    char line[160];
    for (double value : values) {
        glm::vec4 c = transferFunctionAt(tf, value);
        std::snprintf(line, sizeof line, "%.17g %.9g %.9g %.9g %.9g\n", value, c.r, c.g, c.b, c.a);
        text += line;
    }
    return text;
}

void writeTransferFunction(const TransferFunction& tf, const std::string& path)
{
    bool paraView = lowercase(std::filesystem::path(path).extension().string()) == ".json";
    std::string text = paraView ? formatParaViewTransferFunction(tf) : formatTextTransferFunction(tf);
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file.write(text.data(), std::streamsize(text.size()));
    file.close();
    if (!file)
        fail("cannot write transfer function " + path + ": " + std::strerror(errno));
}

} // namespace isoscope
