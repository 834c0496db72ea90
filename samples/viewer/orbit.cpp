#include "orbit.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace viewer {
namespace {

using Vec3 = std::array<float, 3>;

Vec3 sub(Vec3 a, Vec3 b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Vec3 add(Vec3 a, Vec3 b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
Vec3 scale(Vec3 a, float s) { return {a[0] * s, a[1] * s, a[2] * s}; }
Vec3 cross(Vec3 a, Vec3 b) { return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]}; }
float length(Vec3 a) { return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }
Vec3 normalize(Vec3 a) { return scale(a, 1.0f / length(a)); }

} // namespace

void Orbit::rotate(float dxPixels, float dyPixels)
{
    azimuthDeg = std::fmod(azimuthDeg - 0.3f * dxPixels, 360.0f);
    // Short of the poles, where the view's up (world z) and direction align.
    elevationDeg = std::clamp(elevationDeg + 0.3f * dyPixels, -89.0f, 89.0f);
}

void Orbit::pan(float dxPixels, float dyPixels, float height)
{
    float perPixel = zoom / std::max(height, 1.0f);
    panX -= dxPixels * perPixel;
    panY += dyPixels * perPixel;
}

void Orbit::wheel(float notches) { zoom = std::clamp(zoom * std::pow(0.9f, notches), 0.05f, 20.0f); }

isoscope::api::Camera Orbit::camera(const isoscope::api::Volume& volume, float aspect) const
{
    isoscope::api::Camera camera = isoscope::api::frameVolume(volume, aspect, azimuthDeg, elevationDeg);
    Vec3 back = sub(camera.eye, camera.target);
    float distance = length(back);
    Vec3 right = normalize(cross(scale(back, -1.0f), {0.0f, 0.0f, 1.0f}));
    Vec3 up = normalize(cross(right, scale(back, -1.0f)));
    Vec3 shift = add(scale(right, panX * distance), scale(up, panY * distance));
    camera.target = add(camera.target, shift);
    camera.eye = add(camera.target, scale(back, zoom));
    // The planes follow the distance, so zooming out never clips the volume.
    camera.nearPlane *= zoom;
    camera.farPlane *= std::max(zoom, 1.0f);
    camera.orthographic = orthographic;
    return camera;
}

} // namespace viewer
