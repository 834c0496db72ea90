#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>

#include "api/api_impl.h"
#include "render/camera.h"

namespace isoscope::api {

namespace {

glm::vec3 vec(const std::array<float, 3>& v) { return {v[0], v[1], v[2]}; }

Matrix4 matrix(const glm::mat4& m)
{
    Matrix4 result;
    std::memcpy(result.data(), &m[0][0], sizeof(result));
    return result;
}

} // namespace

void checkIsovalue(float iso) { checkFinite("isovalue", iso); }

void checkCamera(const Camera& camera)
{
    const char* axes[] = {"x", "y", "z"};
    for (int axis = 0; axis < 3; ++axis) {
        checkFinite(std::string("Camera::eye.") + axes[axis], camera.eye[axis]);
        checkFinite(std::string("Camera::target.") + axes[axis], camera.target[axis]);
    }
    if (camera.eye == camera.target)
        fail("Camera::eye equals Camera::target: the camera looks nowhere; move the eye away from the target");
    checkParameter("Camera::fovYDeg", camera.fovYDeg, 1.0, 179.0);
    checkParameter("Camera::nearPlane", camera.nearPlane, FLT_MIN, FLT_MAX);
    checkParameter("Camera::farPlane", camera.farPlane, camera.nearPlane, FLT_MAX);
    if (!(camera.farPlane > camera.nearPlane))
        fail("Camera::farPlane equals Camera::nearPlane: give a far plane beyond the near one");
}

// The engine's orbit camera looking from `eye` at `target`.
OrbitCamera orbitCamera(const Camera& camera)
{
    OrbitCamera orbit;
    orbit.target = vec(camera.target);
    glm::vec3 backward = vec(camera.eye) - orbit.target;
    orbit.distance = std::max(glm::length(backward), 1e-6f);
    backward /= orbit.distance;
    orbit.azimuthDeg = glm::degrees(std::atan2(backward.y, backward.x));
    orbit.elevationDeg = glm::degrees(std::asin(std::clamp(backward.z, -1.0f, 1.0f)));
    orbit.fovYDeg = camera.fovYDeg;
    orbit.nearPlane = camera.nearPlane;
    orbit.farPlane = camera.farPlane;
    orbit.orthographic = camera.orthographic;
    return orbit;
}

Camera frameVolume(const Volume& volume, float aspect, float azimuthDeg, float elevationDeg)
{
    auto box = volume.bounds();
    glm::vec3 lo(box[0][0], box[0][1], box[0][2]), hi(box[1][0], box[1][1], box[1][2]);
    OrbitCamera orbit = frameBounds(lo, hi, aspect, azimuthDeg, elevationDeg);
    glm::vec3 eye = cameraPosition(orbit);
    Camera camera;
    camera.eye = {eye.x, eye.y, eye.z};
    camera.target = {orbit.target.x, orbit.target.y, orbit.target.z};
    camera.fovYDeg = orbit.fovYDeg;
    camera.nearPlane = orbit.nearPlane;
    camera.farPlane = orbit.farPlane;
    return camera;
}

Matrix4 viewMatrix(const Camera& camera) { return matrix(isoscope::viewMatrix(orbitCamera(camera))); }

Matrix4 projectionMatrix(const Camera& camera, float aspect)
{
    return matrix(isoscope::projectionMatrix(orbitCamera(camera), aspect));
}

Matrix4 viewProjection(const Camera& camera, float aspect)
{
    return matrix(isoscope::viewProjection(orbitCamera(camera), aspect));
}

} // namespace isoscope::api
