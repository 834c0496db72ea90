#include "dvr/transfer_function_presets.h"

#include <cmath>
#include <filesystem>
#include <sstream>

#include "core/error.h"
#include "core/text.h"
#include "dvr/transfer_function_io.h"

namespace isoscope {

namespace {

// One control point of both lists.
struct RgbaPoint {
    double value;
    glm::vec3 rgb;
    float alpha;
};

TransferFunction fromPoints(std::string name, const std::vector<RgbaPoint>& points)
{
    TransferFunction tf;
    tf.name = std::move(name);
    for (const RgbaPoint& point : points) {
        tf.color.push_back({point.value, point.rgb});
        tf.opacity.push_back({point.value, point.alpha});
    }
    return tf;
}

// The points placed over [lo, hi]: a point's value is a fraction of the range.
std::vector<RgbaPoint> overRange(std::vector<RgbaPoint> points, double lo, double hi)
{
    for (RgbaPoint& point : points)
        point.value = lo + point.value * (hi - lo);
    return points;
}

// The points cut to [lo, hi]: the function is the same inside the range, and
// the table's entries are spent on the range alone (a CT with no metal does
// not spread 256 entries up to 3071 HU).
std::vector<RgbaPoint> cutToRange(const std::vector<RgbaPoint>& points, double lo, double hi)
{
    auto at = [&](double value) {
        size_t i = 0;
        while (i < points.size() && points[i].value < value)
            ++i;
        if (i == 0)
            return RgbaPoint{value, points.front().rgb, points.front().alpha};
        if (i == points.size())
            return RgbaPoint{value, points.back().rgb, points.back().alpha};
        const RgbaPoint &left = points[i - 1], &right = points[i];
        float t = float((value - left.value) / (right.value - left.value));
        return RgbaPoint{value, glm::mix(left.rgb, right.rgb, t), left.alpha + t * (right.alpha - left.alpha)};
    };
    std::vector<RgbaPoint> cut{at(lo)};
    for (const RgbaPoint& point : points)
        if (point.value > lo && point.value < hi)
            cut.push_back(point);
    cut.push_back(at(hi));
    return cut;
}

const glm::vec3 kBlack{0.0f};
const glm::vec3 kTissue{0.80f, 0.36f, 0.30f};   // translucent soft tissue: reddish
const glm::vec3 kBone{0.96f, 0.93f, 0.85f};     // opaque dense material: off-white
const glm::vec3 kNegative{0.23f, 0.30f, 0.75f}; // cool-warm ends (Moreland's diverging map)
const glm::vec3 kPositive{0.71f, 0.02f, 0.15f};

// Opacity is per voxel of distance: 0.003 over a 300-voxel body keeps
// 1 − 0.997^300 ≈ 60 % of the light back, so bone shows through soft tissue.
TransferFunction ctHounsfield(double lo, double hi)
{
    std::vector<RgbaPoint> points = {
        {-1000, kBlack, 0.0f},                     // air
        {-500, kBlack, 0.0f},                      // lung
        {-150, 0.7f * kTissue, 0.0f},              // fat begins
        {-100, kTissue, 0.0015f},                  // fat
        {200, glm::mix(kTissue, kBone, 0.3f), 0.004f}, // muscle, blood, organs, contrast
        {300, kBone, 0.5f},                        // cancellous bone
        {700, kBone, 0.9f},                        // cortical bone
        {3071, glm::vec3(1.0f), 1.0f},             // metal, the top of 12-bit CT
    };
    return fromPoints("ct (Hounsfield units)", cutToRange(points, lo, hi));
}

// Fractions of the value range, set on the engine CT (uint8): air below 30,
// the material's blurred border 30..125 (within 3 voxels of the metal), the
// aluminium at 130..155, denser inserts at 195..255. The border up to 0.47
// (120) is a translucent shell (0.08 per voxel: about 20 % over its 3
// voxels), the metal an opaque light surface from 0.505 (129) up.
TransferFunction ctNormalized(double lo, double hi)
{
    std::vector<RgbaPoint> points = {
        {0.00, kBlack, 0.0f},
        {0.12, 0.7f * kTissue, 0.0f},
        {0.30, kTissue, 0.04f},
        {0.47, glm::mix(kTissue, kBone, 0.4f), 0.08f},
        {0.505, kBone, 0.85f},
        {1.00, glm::vec3(1.0f), 1.0f},
    };
    return fromPoints("ct", overRange(points, lo, hi));
}

TransferFunction grayscale(double lo, double hi)
{
    return fromPoints("grayscale", {{lo, kBlack, 0.0f}, {hi, glm::vec3(1.0f), 1.0f}});
}

// A shell either side of zero, ±0.5 % of the value range wide: on cayley:128
// (range −27..5) ±0.16, about 2.5 voxels each side where the surface is
// steepest. The table spans the shell alone, so its 256 entries resolve it;
// every value outside clamps to a transparent end.
TransferFunction cayley(double lo, double hi)
{
    double w = 0.005 * (hi - lo);
    std::vector<RgbaPoint> points = {
        {-w, kNegative, 0.0f},
        {-0.5 * w, kNegative, 0.15f},
        {0.0, glm::vec3(0.87f), 0.6f},
        {0.5 * w, kPositive, 0.15f},
        {w, kPositive, 0.0f},
    };
    return fromPoints("cayley", points);
}

std::string number(double value)
{
    std::ostringstream text;
    text << value;
    return text.str();
}

} // namespace

std::vector<std::string> transferFunctionPresetNames() { return {"ct", "grayscale", "cayley"}; }

std::optional<TransferFunction> transferFunctionPreset(std::string_view name, float valueMin, float valueMax)
{
    if (!std::isfinite(valueMin) || !std::isfinite(valueMax) || valueMin > valueMax)
        fail("transfer function preset '" + std::string(name) + "': value range " + number(valueMin) + " .. " +
             number(valueMax) + " is not a range (finite, lowest first)");
    double lo = valueMin, hi = valueMax;
    if (hi - lo < 1e-6 * std::max(1.0, std::abs(lo))) // a constant volume: a range of 1 around its value
        lo -= 0.5, hi += 0.5;

    std::optional<TransferFunction> tf;
    if (name == "ct")
        tf = lo <= -500.0 ? ctHounsfield(lo, hi) : ctNormalized(lo, hi);
    else if (name == "grayscale")
        tf = grayscale(lo, hi);
    else if (name == "cayley")
        tf = cayley(lo, hi);
    if (tf)
        checkTransferFunction(*tf);
    return tf;
}

TransferFunction resolveTransferFunction(const std::string& nameOrPath, float valueMin, float valueMax)
{
    if (std::optional<TransferFunction> preset = transferFunctionPreset(nameOrPath, valueMin, valueMax))
        return *preset;
    std::error_code error;
    if (!std::filesystem::exists(nameOrPath, error))
        fail("transfer function '" + nameOrPath + "' is neither a preset (" + join(transferFunctionPresetNames(), ", ") +
             ") nor a file; give a preset name, a ParaView .json export or a text file of `value r g b a` lines");
    return readTransferFunction(nameOrPath);
}

} // namespace isoscope
