#pragma once
// The adaptive mapping's cost model (`--mode iso-auto`). The two mappings
// are complementary (Wang, Yang, Cao, table 1): one invocation per ray is
// fast when the view faces the image's xy slices and slow facing zy, warp
// marching the other way round, because the texture cache favours samples
// that share a slice; with empty-space skipping the content matters too (a
// diagonal view of Cayley crosses long runs of bricks that hold surface).
// So the model is a table, measured on the device the engine runs on
// (calibrateRaycastCostModel in iso_raycaster.h): each mapping's frame time
// looking along 21 directions of the positive octant of index space (a grid
// 22.5° apart in polar angle from z and in azimuth from x), taken as
// symmetric in each axis's sign. A view's prediction interpolates them
// bilinearly in (polar angle, azimuth), so it is the measurement at a measured
// direction and continuous everywhere (the z row is one measurement at every
// azimuth). choose() picks the mapping with the lower prediction. (A Gaussian
// of the angle to each direction was tried first: near z the azimuth columns
// are only 8.6° apart, and it blurred them into each other.)
#include <array>

#include <glm/glm.hpp>

#include "raycast/raycast_params.h"

namespace isoscope {

constexpr int kCalibrationRows = 4;                     // polar angles after z, and azimuth steps
constexpr double kCalibrationStep = 3.14159265358979323846 / 8.0; // 22.5°
constexpr int kCalibrationDirections = 1 + kCalibrationRows * (kCalibrationRows + 1);

// Index-space unit directions: z first, then polar angles 22.5°, 45°, 67.5°,
// 90° from z, each at azimuths 0°, 22.5°, 45°, 67.5°, 90° from x.
std::array<glm::vec3, kCalibrationDirections> calibrationDirections();

// A table of per-direction times (calibrationDirections()) read at any
// index-space direction: bilinear in (polar angle, azimuth), symmetric in
// each axis's sign. The DVR cost model (dvr/dvr_cost_model.h) reads its tables so too.
double interpolateCalibration(const std::array<double, kCalibrationDirections>& ms, glm::vec3 indexDirection);

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
