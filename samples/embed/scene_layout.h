#pragma once
// Where the host's scene stands relative to the volume, and the camera both
// the host and isoscope draw through: a ground plane a little below the
// volume's bounds (so the volume stands in front of it), cubes on it beside
// the volume, and optionally one cube between the camera and the volume.
#include <array>
#include <vector>

#include <vulkan/vulkan_core.h>

#include <isoscope/camera.h>
#include <isoscope/volume.h>

namespace embed {

using Vec3 = std::array<float, 3>;

struct Box {
    Vec3 center{};
    Vec3 halfSize{};
    Vec3 color{};
};

struct SceneView {
    isoscope::api::Camera camera;
    isoscope::api::Matrix4 viewProjection{}; // isoscope's own, so the depths match pixel for pixel
    Vec3 toLight{};                          // unit, world space
    Box ground;                              // halfSize z is 0: a quad
    std::vector<Box> cubes;
};

SceneView layoutScene(const isoscope::api::Volume& volume, VkExtent2D extent, float azimuthDeg, float elevationDeg,
                      bool cubeInFront);

} // namespace embed
