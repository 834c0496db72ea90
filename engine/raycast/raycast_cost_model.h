#pragma once
// The adaptive mapping's cost model (`--mode iso-auto`). The two mappings
// are complementary (Wang, Yang, Cao, table 1): one invocation per ray is
// fast when the view faces the image's xy slices and slow facing zy, warp
// marching the other way round, because the texture cache favours samples
// that share a slice; with empty-space skipping the content matters too (a
// diagonal view of Cayley crosses long runs of bricks that hold surface).
// So the model is a table, measured on the device the engine runs on
// (calibrateRaycastCostModel in iso_raycaster.h): each mapping's frame time
// looking along 7 directions of the positive octant of index space (the 3
// axes, the 3 face diagonals, the body diagonal), taken as symmetric in each
// axis's sign. A view's prediction interpolates them barycentrically on the
// spherical triangle (axis, face diagonal, body diagonal) that holds its
// direction, so it is exact at the measured directions. choose() picks the
// mapping with the lower prediction.
#include <array>

#include <glm/glm.hpp>

#include "raycast/raycast_params.h"

namespace isoscope {

constexpr int kCalibrationDirections = 7;

// Index-space unit directions: x, y, z, xy, xz, yz, xyz.
std::array<glm::vec3, kCalibrationDirections> calibrationDirections();

struct RaycastCostModel {
    std::array<double, kCalibrationDirections> standardMs{}; // per calibrationDirections()
    std::array<double, kCalibrationDirections> warpMs{};
    bool calibrated = false;

    double predictMs(RaycastMode mode, glm::vec3 indexDirection) const;
    // Standard or Warp, whichever predicts less time (Standard on a tie).
    // Throws Error before calibration.
    RaycastMode choose(glm::vec3 indexDirection) const;
};

} // namespace isoscope
