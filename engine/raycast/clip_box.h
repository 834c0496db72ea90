#pragma once
// The box of the volume's index space that rays sample, both raycasters'
// (iso_raycaster.h, dvr/dvr_raycaster.h): the whole volume, or a part of it
// to look inside. The frame's "clip" pass writes it for the shaders
// (addRayClipPass in ray_setup.h).
#include <limits>

#include <glm/glm.hpp>

namespace isoscope {

struct ClipBox {
    // Corners in voxels (index space: voxel i at i), lo raised to 0 and hi
    // lowered to dims − 1 when a frame records; lo > hi on an axis clips everything.
    glm::vec3 lo{0.0f};
    glm::vec3 hi{std::numeric_limits<float>::max()};
};

} // namespace isoscope
