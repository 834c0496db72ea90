#pragma once
// What both raycasters (isosurface: iso_raycaster.h; direct volume
// rendering: dvr/dvr_raycaster.h) push and dispatch alike: the camera as the
// shaders' cameraRay() reads it (shaders/common/camera_rays.glsl), packed
// colours, and a workgroup tile that fits the device.
#include <array>
#include <cstdint>

#include <glm/glm.hpp>
#include <volk.h>

#include "render/camera.h"

namespace isoscope {

struct DeviceInfo;

struct RayCamera {
    glm::vec3 eye{0.0f};
    glm::vec3 forward{0.0f}; // unit view direction
    glm::vec3 right{0.0f};   // world offset per unit of NDC x
    glm::vec3 down{0.0f};    // world offset per unit of NDC y (Vulkan: +y is down)
    float nearPlane = 0.0f, farPlane = 0.0f;
    bool orthographic = false;
};

RayCamera rayCamera(const OrbitCamera& camera, VkExtent2D extent);

// RGBA8, red in the low byte (GLSL's unpackUnorm4x8).
uint32_t packColor(glm::vec4 color);

// A workgroup of whole subgroups, within the device's limit, holding
// tile[0] × tile[1] items of `invocationsPerItem` each: lavapipe at subgroup
// size 4 allows 128 invocations, a device with 128-wide subgroups needs at
// least 128. Throws Error when no tile fits.
std::array<uint32_t, 2> fitTile(std::array<uint32_t, 2> tile, uint32_t invocationsPerItem, const DeviceInfo& info);

} // namespace isoscope
