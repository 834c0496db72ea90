#include "raycast/raycast_cost_model.h"

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

double RaycastCostModel::predictMs(RaycastMode mode, glm::vec3 indexDirection) const
{
    if (mode == RaycastMode::Auto)
        mode = choose(indexDirection);
    const std::array<double, 3>& ms = mode == RaycastMode::Warp ? warpMs : standardMs;
    float length = glm::length(indexDirection);
    glm::vec3 d = length > 0.0f ? indexDirection / length : glm::vec3(0.0f, 0.0f, 1.0f);
    return double(d.x * d.x) * ms[0] + double(d.y * d.y) * ms[1] + double(d.z * d.z) * ms[2];
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
