#include "scene_layout.h"

#include <algorithm>
#include <cmath>

namespace embed {
namespace {

Vec3 add(Vec3 a, Vec3 b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
Vec3 sub(Vec3 a, Vec3 b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Vec3 scale(Vec3 a, float s) { return {a[0] * s, a[1] * s, a[2] * s}; }
float length(Vec3 a) { return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }
Vec3 normalize(Vec3 a) { return scale(a, 1.0f / std::max(length(a), 1e-20f)); }

} // namespace

SceneView layoutScene(const isoscope::api::Volume& volume, VkExtent2D extent, float azimuthDeg, float elevationDeg,
                      bool cubeInFront)
{
    float aspect = float(extent.width) / float(extent.height);
    SceneView view;
    view.camera = isoscope::api::frameVolume(volume, aspect, azimuthDeg, elevationDeg);
    view.viewProjection = isoscope::api::viewProjection(view.camera, aspect);

    auto [lo, hi] = volume.bounds();
    Vec3 min{float(lo[0]), float(lo[1]), float(lo[2])};
    Vec3 max{float(hi[0]), float(hi[1]), float(hi[2])};
    Vec3 center = scale(add(min, max), 0.5f);
    float radius = 0.5f * length(sub(max, min));

    Vec3 toEye = normalize(sub(view.camera.eye, center));
    // Right of the view in the ground plane; at elevation ±90 any direction will do.
    Vec3 right = normalize({-toEye[1], toEye[0], 0.0f});
    if (length({toEye[0], toEye[1], 0.0f}) < 1e-4f)
        right = {1.0f, 0.0f, 0.0f};
    Vec3 away = normalize({-toEye[0], -toEye[1], 0.0f});
    // Light from above and over the viewer's shoulder, so cube faces differ.
    view.toLight = normalize(add(add(toEye, scale(right, 0.5f)), {0.0f, 0.0f, 1.5f}));

    float groundZ = min[2] - 0.05f * radius;
    view.ground = {{center[0], center[1], groundZ}, {6.0f * radius, 6.0f * radius, 0.0f}, {0.42f, 0.50f, 0.40f}};

    float half = 0.16f * radius;
    auto onGround = [&](Vec3 offset) { return add({center[0], center[1], groundZ + half}, offset); };
    view.cubes = {
        {onGround(add(scale(right, 0.95f * radius), scale(away, 0.2f * radius))), {half, half, half}, {0.80f, 0.25f, 0.20f}},
        {onGround(add(scale(right, -0.95f * radius), scale(away, 0.4f * radius))), {half, half, half}, {0.20f, 0.40f, 0.85f}},
        {onGround(add(scale(away, 1.3f * radius), scale(right, 0.4f * radius))), {half, half, half}, {0.85f, 0.75f, 0.20f}},
    };
    if (cubeInFront) {
        // Just outside the volume's bounding sphere on the line to the eye:
        // it hides the middle of the surface without cutting into it.
        float front = 0.12f * radius;
        view.cubes.push_back({add(center, scale(toEye, 1.05f * radius + front)), {front, front, front}, {0.9f, 0.1f, 0.8f}});
    }
    return view;
}

} // namespace embed
