#pragma once
// What both raycasters (isosurface: iso_raycaster.h; direct volume
// rendering: dvr/dvr_raycaster.h) push and dispatch alike: the camera as the
// shaders' cameraRay() reads it (shaders/common/camera_rays.glsl), packed
// colours, and a workgroup tile that fits the device.
#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <volk.h>

#include "core/shader.h"
#include "graph/render_graph.h"
#include "raycast/clip_box.h"
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

// Adds `name` + " clip", a transfer pass writing `clip` (read when the graph
// records, so it must outlive the recordings) within [0, dims − 1] into a
// buffer of its own: the shaders' RayClip (shaders/common/camera_rays.glsl),
// which the ray passes read at the binding their shader gives it.
ResourceId addRayClipPass(RenderGraph& graph, const ClipBox& clip, std::array<uint32_t, 3> dims, const std::string& name);

// A workgroup of whole subgroups, within the device's limit, holding
// tile[0] × tile[1] items of `invocationsPerItem` each: lavapipe at subgroup
// size 4 allows 128 invocations, a device with 128-wide subgroups needs at
// least 128. Throws Error when no tile fits.
std::array<uint32_t, 2> fitTile(std::array<uint32_t, 2> tile, uint32_t invocationsPerItem, const DeviceInfo& info);

// The push-constant members both raycasters' blocks hold under the same
// names (the camera, the grid, the image), then the block's own: for
// checkPushLayout, which compares them by offset.
template <class Push>
std::vector<PushMember> rayPushMembers(std::initializer_list<PushMember> own)
{
#define RAY_MEMBER(m) ISOSCOPE_PUSH_MEMBER(Push, m)
    std::vector<PushMember> members = {RAY_MEMBER(eye),        RAY_MEMBER(forward),    RAY_MEMBER(nearPlane),
                                       RAY_MEMBER(right),      RAY_MEMBER(farPlane),   RAY_MEMBER(down),
                                       RAY_MEMBER(flags),      RAY_MEMBER(origin),     RAY_MEMBER(inverseSpacing),
                                       RAY_MEMBER(valueScale), RAY_MEMBER(dims),       RAY_MEMBER(clearColor),
                                       RAY_MEMBER(extent)};
#undef RAY_MEMBER
    members.insert(members.end(), own);
    return members;
}

} // namespace isoscope
