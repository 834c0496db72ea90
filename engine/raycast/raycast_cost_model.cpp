#include "raycast/raycast_cost_model.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace isoscope {

std::string_view raycastModeName(RaycastMode mode)
{
    switch (mode) {
    case RaycastMode::Standard: return "iso-standard";
    case RaycastMode::Warp: return "iso-warp";
    case RaycastMode::Auto: return "iso-auto";
    }
    return "?";
}

std::optional<RaycastMode> parseRaycastMode(std::string_view name)
{
    for (RaycastMode mode : {RaycastMode::Standard, RaycastMode::Warp, RaycastMode::Auto})
        if (raycastModeName(mode) == name)
            return mode;
    return std::nullopt;
}

std::array<glm::vec3, kCalibrationDirections> calibrationDirections()
{
    std::array<glm::vec3, kCalibrationDirections> directions;
    directions[0] = {0.0f, 0.0f, 1.0f};
    int next = 1;
    for (int polar = 1; polar <= kCalibrationRows; ++polar)
        for (int azimuth = 0; azimuth <= kCalibrationRows; ++azimuth) {
            double p = kCalibrationStep * polar, a = kCalibrationStep * azimuth;
            directions[next++] = glm::vec3(std::sin(p) * std::cos(a), std::sin(p) * std::sin(a), std::cos(p));
        }
    return directions;
}

double interpolateCalibration(const std::array<double, kCalibrationDirections>& ms, glm::vec3 indexDirection)
{
    // std::fabs, not glm::abs: glm keeps -0.0, and atan2(-0.0, -0.0) is -pi (a view along -z indexed before the table).
    glm::dvec3 d(std::fabs(double(indexDirection.x)), std::fabs(double(indexDirection.y)), std::fabs(double(indexDirection.z)));
    double length = glm::length(d);
    d = length > 0.0 ? d / length : glm::dvec3(0.0, 0.0, 1.0);
    // Grid coordinates: polar angle from z and azimuth from x, in steps.
    double polar = std::acos(std::clamp(d.z, 0.0, 1.0)) / kCalibrationStep;
    double azimuth = std::atan2(d.y, d.x) / kCalibrationStep;
    int p = std::clamp(int(polar), 0, kCalibrationRows - 1), a = std::clamp(int(azimuth), 0, kCalibrationRows - 1);
    double fp = polar - p, fa = azimuth - a;
    // Row 0 is the z axis itself, the same measurement at every azimuth.
    auto at = [&](int row, int column) { return row == 0 ? ms[0] : ms[1 + (row - 1) * (kCalibrationRows + 1) + column]; };
    double low = (1.0 - fa) * at(p, a) + fa * at(p, a + 1);
    double high = (1.0 - fa) * at(p + 1, a) + fa * at(p + 1, a + 1);
    return (1.0 - fp) * low + fp * high;
}

double RaycastCostModel::predictMs(RaycastMode mode, glm::vec3 indexDirection) const
{
    if (mode == RaycastMode::Auto)
        mode = choose(indexDirection);
    return interpolateCalibration(mode == RaycastMode::Warp ? warpMs : standardMs, indexDirection);
}

RaycastMode RaycastCostModel::choose(glm::vec3 indexDirection) const
{
    if (!calibrated)
        fail("the adaptive raycast mode needs a calibrated cost model: call calibrateRaycastCostModel first");
    return predictMs(RaycastMode::Warp, indexDirection) < predictMs(RaycastMode::Standard, indexDirection)
               ? RaycastMode::Warp
               : RaycastMode::Standard;
}

} // namespace isoscope
