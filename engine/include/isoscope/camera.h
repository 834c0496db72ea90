#pragma once
// The camera isoscope draws and raycasts through, and the matrices a host
// draws its own scene with so that both line up pixel for pixel. World z is
// up; the projection targets Vulkan (depth 0 near to 1 far, clip-space y
// down, so image row 0 is the top of the picture).
//
//   isoscope::api::Camera camera = isoscope::api::frameVolume(*volume, 16.0f / 9.0f, 30.0f, 20.0f);
//   isoscope::api::Matrix4 viewProjection = isoscope::api::viewProjection(camera, 16.0f / 9.0f);
#include <array>

#include "isoscope/export.h"

namespace isoscope::api {

class Volume;

struct Camera {
    std::array<float, 3> eye{3.0f, 0.0f, 1.0f};
    std::array<float, 3> target{0.0f, 0.0f, 0.0f};
    float fovYDeg = 40.0f;     // vertical field of view (orthographic: the same height at the target)
    float nearPlane = 0.01f;
    float farPlane = 100.0f;
    bool orthographic = false;
};

using Matrix4 = std::array<float, 16>; // column-major, as GLSL's mat4

// A camera at the given angles (azimuth about z from +x, elevation above
// the xy plane, degrees) that sees the whole volume.
ISOSCOPE_API Camera frameVolume(const Volume& volume, float aspect, float azimuthDeg = 30.0f,
                                float elevationDeg = 20.0f);
ISOSCOPE_API Matrix4 viewMatrix(const Camera& camera);
ISOSCOPE_API Matrix4 projectionMatrix(const Camera& camera, float aspect);
ISOSCOPE_API Matrix4 viewProjection(const Camera& camera, float aspect);

} // namespace isoscope::api
