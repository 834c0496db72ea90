#pragma once
// What a direct-volume-rendering frame is asked for: the camera (the raster
// pass's, so a DVR image and a mesh of one volume line up), the step, the
// mapping of rays onto the GPU, when to stop and where the depth lies. Read
// by the pass each time the graph records: changing them needs no recompile.
#include <optional>
#include <string_view>

#include <glm/glm.hpp>

#include "raycast/clip_box.h"
#include "render/camera.h"

namespace isoscope {

// How rays map onto the GPU (docs/BENCHMARKS.md has each one's figures).
enum class DvrMapping {
    Standard, // one invocation per ray, 8 × 8 pixels a workgroup
    Shaped,   // one invocation per ray, the workgroup's shape chosen by the view (dvr_view.h)
    Rotated,  // Shaped, with the volume turned a quarter about y in place where the view faces x
    Warp,     // one subgroup per ray, the runs of its lanes combined by a scan of "over"
    Auto,     // per frame, whichever the calibrated cost table says is fastest for the view
};

std::string_view dvrMappingName(DvrMapping mapping); // "standard", "shaped", "rotated", "warp", "auto"
std::optional<DvrMapping> parseDvrMapping(std::string_view name);

struct DvrParams {
    OrbitCamera camera;
    float stepVoxels = 0.5f;       // distance between samples along a ray, in voxels
    DvrMapping mapping = DvrMapping::Standard;
    float terminationOpacity = 0.99f; // a ray stops once this opaque (1: never early)
    float depthOpacity = 0.5f;        // depth is written where the ray first gets this opaque
    bool shading = true;              // gradient shading of samples the table makes opaque enough
    bool skipTransparent = true;      // skip bricks the transfer function makes transparent
    glm::vec4 clearColor{0.08f, 0.08f, 0.10f, 1.0f};
    // true: the background is clearColor; false: what the colour target
    // holds (a mesh drawn before), and with a scene depth rays stop at it.
    bool clear = true;
    ClipBox clip; // the part of the volume rays sample (all of it by default)
};

} // namespace isoscope
