#include "raycast/ray_setup.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/device_info.h"
#include "core/error.h"

namespace isoscope {

RayCamera rayCamera(const OrbitCamera& camera, VkExtent2D extent)
{
    float aspect = float(extent.width) / float(extent.height);
    glm::vec3 forward = -cameraBackward(camera);
    glm::vec3 right = glm::normalize(glm::cross(forward, glm::vec3(0.0f, 0.0f, 1.0f)));
    glm::vec3 up = glm::cross(right, forward);
    // Half the view's height at view depth 1 (perspective) or at any depth (orthographic).
    float halfHeight = camera.orthographic ? orthographicHalfHeight(camera)
                                           : std::tan(glm::radians(camera.fovYDeg) * 0.5f);
    RayCamera result;
    result.eye = cameraPosition(camera);
    result.forward = forward;
    result.right = right * halfHeight * aspect;
    result.down = -up * halfHeight;
    result.nearPlane = camera.nearPlane;
    result.farPlane = camera.farPlane;
    result.orthographic = camera.orthographic;
    return result;
}

uint32_t packColor(glm::vec4 c)
{
    auto channel = [](float v) { return uint32_t(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)); };
    return channel(c.r) | channel(c.g) << 8 | channel(c.b) << 16 | channel(c.a) << 24;
}

ResourceId addRayClipPass(RenderGraph& graph, const ClipBox& clip, std::array<uint32_t, 3> dims, const std::string& name)
{
    ResourceId buffer = graph.createBuffer(name + " clip box", 2 * sizeof(glm::vec4));
    graph.addPass(name + " clip", PassKind::Transfer, {{buffer, Use::TransferDst}},
                  [&clip, dims, buffer](VkCommandBuffer cmd, const RenderGraph& g) {
                      glm::vec3 last(float(dims[0] - 1), float(dims[1] - 1), float(dims[2] - 1));
                      // `RayClip` in camera_rays.glsl: lo, hi (xyz; w unused). Each corner
                      // is clamped on its own side only, so a box beside the volume stays empty.
                      const glm::vec4 box[2] = {glm::vec4(glm::max(clip.lo, glm::vec3(0.0f)), 0.0f),
                                                glm::vec4(glm::min(clip.hi, last), 0.0f)};
                      vkCmdUpdateBuffer(cmd, g.buffer(buffer), 0, sizeof box, box);
                  });
    return buffer;
}

std::array<uint32_t, 2> fitTile(std::array<uint32_t, 2> tile, uint32_t invocationsPerItem, const DeviceInfo& info)
{
    tile = {std::max(tile[0], 1u), std::max(tile[1], 1u)};
    while ((tile[0] * tile[1] * invocationsPerItem) % info.subgroupSize != 0)
        tile[1] *= 2;
    while (tile[0] * tile[1] * invocationsPerItem > info.maxWorkgroupInvocations() && tile[0] * tile[1] > 1) {
        uint32_t& larger = tile[0] >= tile[1] ? tile[0] : tile[1];
        larger = std::max(larger / 2, 1u);
    }
    if (tile[0] * tile[1] * invocationsPerItem > info.maxWorkgroupInvocations())
        fail("a raycast workgroup needs " + std::to_string(tile[0] * tile[1] * invocationsPerItem) +
             " invocations; this device allows " + std::to_string(info.maxWorkgroupInvocations()));
    return tile;
}

} // namespace isoscope
