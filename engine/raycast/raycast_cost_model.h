#pragma once
// The adaptive mapping's cost model (`--mode iso-auto`). The two mappings
// are complementary (Wang, Yang, Cao, table 1): one invocation per ray is
// fast when the view faces the image's xy slices and slow facing zy, warp
// marching the other way round, because the texture cache favours samples
// that share a slice. The model holds each mapping's measured frame time
// looking along each volume axis and predicts a view direction d (unit, in
// index space) as Σ dᵢ² · msᵢ: the share of the ray's steps along each axis.
// Calibrated by measurement on the device the engine runs on (calibrate in
// iso_raycaster.h); choose() picks the cheaper mapping for a view.
#include <array>

#include <glm/glm.hpp>

#include "raycast/raycast_params.h"

namespace isoscope {

struct RaycastCostModel {
    std::array<double, 3> standardMs{}; // looking along x, y, z
    std::array<double, 3> warpMs{};
    bool calibrated = false;

    double predictMs(RaycastMode mode, glm::vec3 indexDirection) const;
    // Standard or Warp, whichever predicts less time (Standard on a tie).
    RaycastMode choose(glm::vec3 indexDirection) const;
};

} // namespace isoscope
