#pragma once
// The orbit camera every isoscope image is seen through: the raster pass and
// the raycasters take their view and projection from here, so a mesh and a
// raycast of the same volume line up pixel for pixel.
//
// Conventions: world z is up; azimuth turns about z from the +x axis towards
// +y, elevation lifts the eye above the xy plane (both in degrees). The
// projection targets Vulkan: depth 0 (near) to 1 (far), clip-space y down,
// so image row 0 is the top of the picture. An orthographic camera shows
// the same height of the scene at the target as the perspective one would
// (half-height = distance × tan(fov / 2)), so toggling it keeps the framing.
#include <algorithm>
#include <cmath>

#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>

namespace isoscope {

struct OrbitCamera {
    glm::vec3 target{0.0f};
    float azimuthDeg = 30.0f;
    float elevationDeg = 20.0f;
    float distance = 3.0f;
    float fovYDeg = 40.0f;    // vertical field of view
    bool orthographic = false;
    float nearPlane = 0.01f;
    float farPlane = 100.0f;
};

// From the target towards the eye, unit length.
inline glm::vec3 cameraBackward(const OrbitCamera& camera)
{
    // ±90° would make "up" parallel to the view direction.
    float elevation = glm::radians(std::clamp(camera.elevationDeg, -89.9f, 89.9f));
    float azimuth = glm::radians(camera.azimuthDeg);
    return {std::cos(elevation) * std::cos(azimuth), std::cos(elevation) * std::sin(azimuth), std::sin(elevation)};
}

inline glm::vec3 cameraPosition(const OrbitCamera& camera)
{
    return camera.target + camera.distance * cameraBackward(camera);
}

inline glm::mat4 viewMatrix(const OrbitCamera& camera)
{
    return glm::lookAtRH(cameraPosition(camera), camera.target, glm::vec3(0.0f, 0.0f, 1.0f));
}

// Half the height of the view at the target, in world units (orthographic).
inline float orthographicHalfHeight(const OrbitCamera& camera)
{
    return camera.distance * std::tan(glm::radians(camera.fovYDeg) * 0.5f);
}

inline glm::mat4 projectionMatrix(const OrbitCamera& camera, float aspect)
{
    glm::mat4 projection;
    if (camera.orthographic) {
        float h = orthographicHalfHeight(camera);
        projection = glm::orthoRH_ZO(-h * aspect, h * aspect, -h, h, camera.nearPlane, camera.farPlane);
    } else {
        projection = glm::perspectiveRH_ZO(glm::radians(camera.fovYDeg), aspect, camera.nearPlane, camera.farPlane);
    }
    projection[1][1] = -projection[1][1]; // Vulkan's clip-space y points down
    return projection;
}

inline glm::mat4 viewProjection(const OrbitCamera& camera, float aspect)
{
    return projectionMatrix(camera, aspect) * viewMatrix(camera);
}

// A camera at the given angles that sees the whole box [lo, hi]: aimed at its
// centre, far enough that its bounding sphere fits the narrower field of view
// with a small margin (or at `distance` when it is positive), near and far
// planes around the sphere.
inline OrbitCamera frameBounds(glm::vec3 lo, glm::vec3 hi, float aspect, float azimuthDeg = 30.0f,
                               float elevationDeg = 20.0f, float fovYDeg = 40.0f, float distance = 0.0f)
{
    OrbitCamera camera;
    camera.target = 0.5f * (lo + hi);
    camera.azimuthDeg = azimuthDeg;
    camera.elevationDeg = elevationDeg;
    camera.fovYDeg = fovYDeg;
    float radius = std::max(0.5f * glm::length(hi - lo), 1e-6f);
    float halfY = glm::radians(fovYDeg) * 0.5f;
    float halfX = std::atan(std::tan(halfY) * aspect);
    float margin = 1.05f;
    camera.distance = distance > 0.0f ? distance : margin * radius / std::sin(std::min(halfX, halfY));
    camera.nearPlane = std::max(camera.distance - 2.0f * radius, 0.01f * radius);
    camera.farPlane = camera.distance + 2.0f * radius;
    return camera;
}

} // namespace isoscope
