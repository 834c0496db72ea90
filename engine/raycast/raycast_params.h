#pragma once
// What an isosurface raycast frame is asked for: the camera (the raster
// pass's, render/camera.h, so a raycast and a mesh of one volume line up),
// the isovalue, the step, the mapping, and the colours. Read by the pass each
// time the graph records, so changing them needs no recompile.
#include <optional>
#include <string>
#include <string_view>

#include <glm/glm.hpp>

#include "raycast/clip_box.h"
#include "render/camera.h"

namespace isoscope {

// How rays map onto the GPU (Wang, Yang, Cao: "Computation-to-core mapping
// strategies for iso-surface volume rendering on GPUs").
enum class RaycastMode {
    Standard, // one invocation per ray, a workgroup per tile of pixels
    Warp,     // one subgroup per ray (warp marching)
    Auto,     // per frame, whichever the calibrated cost model says is faster for the view
};

std::string_view raycastModeName(RaycastMode mode); // "iso-standard", "iso-warp", "iso-auto"
std::optional<RaycastMode> parseRaycastMode(std::string_view name);

struct RaycastParams {
    OrbitCamera camera;
    float iso = 0.0f;
    float stepVoxels = 0.5f; // distance between samples along a ray, in voxels (index-space units)
    RaycastMode mode = RaycastMode::Auto;
    glm::vec3 frontColor{0.85f, 0.62f, 0.32f}; // as MeshDrawParams: the side the normals point to
    glm::vec3 backColor{0.35f, 0.55f, 0.85f};
    glm::vec4 clearColor{0.08f, 0.08f, 0.10f, 1.0f};
    // true: a ray that misses writes the clear colour and depth 1; false: it
    // leaves the pixel to what earlier passes drew (with a scene depth, the
    // depth target receives the scene's depth there).
    bool clear = true;
    ClipBox clip; // the part of the volume rays sample (all of it by default)
};

} // namespace isoscope
