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
    float f = 1.0f / std::sqrt(2.0f), b = 1.0f / std::sqrt(3.0f);
    return {glm::vec3(1, 0, 0), glm::vec3(0, 1, 0), glm::vec3(0, 0, 1), glm::vec3(f, f, 0),
            glm::vec3(f, 0, f),  glm::vec3(0, f, f), glm::vec3(b, b, b)};
}

double RaycastCostModel::predictMs(RaycastMode mode, glm::vec3 indexDirection) const
{
    if (mode == RaycastMode::Auto)
        mode = choose(indexDirection);
    const std::array<double, kCalibrationDirections>& ms = mode == RaycastMode::Warp ? warpMs : standardMs;
    glm::vec3 d = glm::abs(indexDirection);
    float length = glm::length(d);
    d = length > 0.0f ? d / length : glm::vec3(0.0f, 0.0f, 1.0f);
    // Axes by decreasing component: the triangle (axis a, face diagonal ab,
    // body diagonal) holds d, with d = α e_a + β (e_a + e_b)/√2 + γ (1,1,1)/√3.
    std::array<int, 3> order{0, 1, 2};
    std::sort(order.begin(), order.end(), [&](int i, int j) { return d[i] > d[j] || (d[i] == d[j] && i < j); });
    float u = d[order[0]], v = d[order[1]], w = d[order[2]];
    double alpha = u - v, beta = std::sqrt(2.0) * (v - w), gamma = std::sqrt(3.0) * w;
    int a = order[0], pair = order[0] + order[1]; // 1: xy, 2: xz, 3: yz
    int face = 3 + (pair - 1);
    return (alpha * ms[a] + beta * ms[face] + gamma * ms[6]) / (alpha + beta + gamma);
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
