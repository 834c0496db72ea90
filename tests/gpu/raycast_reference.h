#pragma once
// A CPU isosurface raycaster written for the tests, with the sampling rule of
// shaders/raycast/raycast_common.glsl and nothing else: the camera rays of
// IsoRaycaster::recordRaycast, samples at s0 + k × step through the box
// [0, dims − 1] of index space, float trilinear interpolation of the Volume's
// samples (clamp to edge), the first change of side from the first sample's
// (the extractors' rule: inside is finite and ≥ iso; NaN and ±inf are
// outside; a sample equal to the isovalue is inside, also the first) placed
// by linear interpolation, headlight shading (shaders/common/headlight_shading.glsl)
// from central differences. No empty-space skipping: skipping must not
// change a hit, so the reference marches every sample.
//
// It follows the shader's arithmetic in float, operation for operation where
// the order matters, so its rays are the GPU's to within float rounding; the
// GPU's texture filter is the one thing it does not copy (lavapipe filters
// float32 in float; real GPUs round the weights to subTexelPrecisionBits,
// commonly 8). So it also says, per ray, whether a filter whose weights are
// off by up to a given amount could change the outcome ("decided"), and how
// far such a filter could move the hit.
#include <array>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "io/image_io.h"
#include "raycast/raycast_params.h"
#include "volume/volume.h"

namespace isoscope::test {

// What recordRaycast pushes to the shader for a camera, a volume and an image.
struct RayFrame {
    glm::vec3 eye{0.0f};
    glm::vec3 forward{0.0f}; // unit view direction
    glm::vec3 right{0.0f};   // world offset per unit of NDC x
    glm::vec3 down{0.0f};    // world offset per unit of NDC y (row 0 at the top)
    bool orthographic = false;
    float nearPlane = 0.0f, farPlane = 0.0f;
    glm::vec3 origin{0.0f};
    glm::vec3 inverseSpacing{1.0f};
    glm::ivec3 dims{0};
    uint32_t width = 0, height = 0;
};

RayFrame rayFrame(const OrbitCamera& camera, const Volume& volume, uint32_t width, uint32_t height);

// One pixel's ray, as cameraRay() in raycast_common.glsl builds it.
struct ReferenceRay {
    glm::vec3 start{0.0f}; // index space, at s = 0
    glm::vec3 unit{0.0f};  // index-space direction, unit length
    float scale = 1.0f;    // index-space length per unit of view depth
    float s0 = 0.0f;       // where sampling starts (box entry or near plane), voxels along the ray
    int samples = 0;       // samples at s0 + k × step for k < samples; 0: the ray misses the box
};

ReferenceRay referenceRay(const RayFrame& frame, uint32_t x, uint32_t y, float step);
// Every pixel's ray, row by row.
std::vector<ReferenceRay> referenceRays(const RayFrame& frame, float step);

// The depth convention (glm's perspectiveRH_ZO / orthoRH_ZO): view depth ↔ 0..1.
float depthOf(const RayFrame& frame, float viewDepth);
float viewDepthOf(const RayFrame& frame, float depth);
// The distance along the pixel's ray, in voxels, of a 0..1 depth.
inline float distanceOfDepth(const RayFrame& frame, const ReferenceRay& ray, float depth)
{
    return viewDepthOf(frame, depth) * ray.scale;
}

// The volume's samples as floats, with float trilinear interpolation at an
// index-space point (clamp to edge, as the GPU's sampler).
class ReferenceField {
public:
    explicit ReferenceField(const Volume& volume);
    float at(int x, int y, int z) const;
    float trilinear(glm::vec3 p) const;
    // Also how much the value can change per unit of error in each weight:
    // the sum over the axes of the largest difference along a cell edge
    // (infinite where a corner is not finite).
    float trilinear(glm::vec3 p, float& sensitivity) const;

private:
    glm::ivec3 dims_;
    std::vector<float> values_;
};

struct ReferenceImage {
    RgbaImage image;             // shaded hit, or the clear colour
    std::vector<float> depth;    // 0..1, 1 on a miss (as the GPU's depth target)
    std::vector<float> distance; // the hit's distance along the ray in voxels, −1 on a miss
    // 1 where a filter whose weights are off by up to weightError takes the
    // march's decisions: no sample that sets the ray's side or could make an
    // earlier crossing (the first, those before the pair straddling the hit,
    // every one on a miss) lies within weightError × sensitivity of the
    // isovalue; a sample of the pair may, if that only moves the crossing to
    // the neighbouring pair.
    std::vector<uint8_t> decided;
    // On decided hits, how far such a filter can move the hit along the ray
    // (voxels): the straddling samples' possible errors through the interpolation.
    std::vector<float> tolerance;
    // |cos| of the angle between the ray and the surface normal at the hit (0 on a miss).
    std::vector<float> incidence;
    RayFrame frame;
    std::vector<ReferenceRay> rays;

    size_t pixel(uint32_t x, uint32_t y) const { return size_t(y) * image.width + x; }
};

// The image a GPU raycast with `params` (mode and brick skipping aside) must
// give, params.clear assumed (no scene depth). weightError: the filter
// weights' possible error, for `decided` and `tolerance`.
ReferenceImage referenceRaycast(const Volume& volume, const RaycastParams& params, uint32_t width, uint32_t height,
                                float weightError = 1.0f / 256.0f);

} // namespace isoscope::test
