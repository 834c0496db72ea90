// What both isosurface raycasters share (iso_standard.comp, iso_warp.comp):
// the parameters, the camera rays, the sampling rule, empty-space skipping,
// the hit and how a pixel is written. One rule, so the two mappings take the
// same samples and find the same surface.
//
// The sampling rule (the same in tests/gpu/raycast_reference.cpp): in the
// volume's index space (voxel i at i, world = origin + i × spacing) a ray
// enters the box [0, dims − 1] at s0 and takes samples at s0 + k × step
// (s: distance in voxels along the ray) while inside the box (the clip box,
// when the volume is clipped) and in front of
// the scene depth. The value is the hardware's trilinear filter of the 3D
// image, in the data's units. With the extractors' rule (inside: finite and
// ≥ iso; NaN and ±inf outside), the surface is where a sample's side first
// differs from the first sample's side, placed by linear interpolation
// between the two straddling samples (Wang, Yang, Cao: "Computation-to-core
// mapping strategies for iso-surface volume rendering on GPUs", section 4);
// a first sample exactly at the isovalue is a hit there (their figure 5,
// case D).
#extension GL_GOOGLE_include_directive : require

#include "headlight_shading.glsl"

layout(constant_id = 0) const uint SUBGROUP_SIZE = 32;
// Standard mapping: the workgroup's tile of pixels. Warp marching: its tile
// of rays, one subgroup each.
layout(constant_id = 1) const uint TILE_X = 8;
layout(constant_id = 2) const uint TILE_Y = 8;
layout(constant_id = 3) const uint BRICK = 8;       // edge of an empty-space brick, in voxels
layout(constant_id = 4) const bool SKIP_EMPTY = true;

const uint FLAG_ORTHOGRAPHIC = 1u;
const uint FLAG_CLEAR = 2u;       // misses write the clear colour; otherwise they keep what is there
const uint FLAG_SCENE_DEPTH = 4u; // rays stop at sceneDepth (what earlier raster passes drew)

// 128 bytes, the least maxPushConstantsSize any Vulkan device offers.
layout(push_constant) uniform RaycastParameters {
    vec3 eye;            float iso;         // world
    vec3 forward;        float nearPlane;   // unit view direction
    vec3 right;          float farPlane;    // world offset per unit of NDC x
    vec3 down;           uint flags;        // world offset per unit of NDC y (Vulkan: +y is down)
    vec3 origin;         float step;        // step in voxels along the ray
    vec3 inverseSpacing; float valueScale;  // texel → data units
    ivec3 dims;          uint clearColor;   // packed RGBA8
    uvec2 extent;        uint frontColor;   uint backColor; // packed RGBA8
} params;

layout(set = 0, binding = 0) uniform sampler3D volumeTexture;
// Per brick, 8 bits packed four to a word: the sides its samples can be on (canSkipBrick).
layout(set = 0, binding = 1, std430) readonly buffer BrickClasses { uint brickClassWords[]; };
layout(set = 0, binding = 2, rgba8) uniform writeonly image2D colorTarget;
layout(set = 0, binding = 3, r32f) uniform image2D depthTarget;
layout(set = 0, binding = 4) uniform sampler2D sceneDepth;
// Rays the Standard mapping hands to warp marching (iso_standard.comp,
// TAIL_BUDGET): the pixel (x | y << 16) and the first sample not yet tested.
#ifndef TAIL_RAYS_ACCESS
#define TAIL_RAYS_ACCESS
#endif
layout(set = 0, binding = 5, std430) TAIL_RAYS_ACCESS buffer TailRays {
    uint tailCount;
    uint tailPadding[3];
    uvec2 tailRays[];
};

// The box rays sample (camera_rays.glsl): [0, dims − 1], or the clip box within it.
layout(set = 0, binding = 6, std430) readonly buffer RayClip { vec4 lo; vec4 hi; } rayClip;

#include "camera_rays.glsl"

// The field at index-space point p: hardware trilinear filtering, in data units.
float fieldAt(vec3 p) { return texture(volumeTexture, (p + 0.5) / vec3(params.dims)).r * params.valueScale; }
float sampleAt(Ray ray, int k) { return fieldAt(rayPoint(ray, rayDistance(ray, k))); }

// The extractors' rule: finite and at or above the isovalue; NaN and ±inf
// are outside, as the brick classes (classify_bricks.comp) count them.
bool isInside(float v) { return v >= params.iso && !isinf(v); }

// Empty-space skipping (classify_bricks.comp). A brick's class says which
// sides its samples can be on: bit 0 outside, bit 1 inside, over the voxels
// of the brick and of its 26 neighbours. A ray on side `inside` that finds a
// class of only that side cannot cross the surface near it, so skipping
// changes no hit.
const uint kMayBeOutside = 1u, kMayBeInside = 2u;

// How far along the ray one lookup vouches for: every sample within
// skipReach() voxels of the looked-up point lies in the cells of the brick
// or its neighbours, with one voxel spare for a hardware filter that rounds
// its coordinate into the next cell. Both mappings step their lookups by it.
float skipReach() { return float(BRICK) - 2.0; }

ivec3 brickOf(vec3 p) { return clamp(ivec3(floor(p)), ivec3(0), params.dims - 1) / int(BRICK); }

bool canSkipBrick(ivec3 brick, bool inside)
{
    ivec3 counts = (params.dims + int(BRICK) - 1) / int(BRICK);
    uint index = uint(brick.x + counts.x * (brick.y + counts.y * brick.z));
    uint brickClass = bitfieldExtract(brickClassWords[index >> 2], int(index & 3u) * 8, 8);
    return brickClass == (inside ? kMayBeInside : kMayBeOutside);
}

// Where the surface lies between samples k − 1 and k (values a and b on
// either side), by linear interpolation.
float crossingDistance(Ray ray, int k, float a, float b)
{
    float f = (params.iso - a) / (b - a);
    f = (f >= 0.0 && f <= 1.0) ? f : 1.0; // a NaN sample: the surface is at it
    return rayDistance(ray, k - 1) + f * params.step;
}

vec3 unpackColor(uint rgba) { return unpackUnorm4x8(rgba).rgb; }

// Shading at the hit: the gradient by central differences (one voxel each
// way), turned into a world-space normal pointing from inside to outside.
vec3 shadeHit(Ray ray, vec3 p)
{
    vec3 gradient = vec3(fieldAt(p + vec3(1, 0, 0)) - fieldAt(p - vec3(1, 0, 0)),
                         fieldAt(p + vec3(0, 1, 0)) - fieldAt(p - vec3(0, 1, 0)),
                         fieldAt(p + vec3(0, 0, 1)) - fieldAt(p - vec3(0, 0, 1)));
    vec3 normal = -gradient * params.inverseSpacing;
    vec3 world = params.origin + p / params.inverseSpacing;
    vec3 toEye = isOrthographic() ? -params.forward : normalize(params.eye - world);
    return shadeHeadlight(normal, toEye, unpackColor(params.frontColor), unpackColor(params.backColor));
}

// Writes the pixel: the shaded hit at distance s, or (s < 0) a miss.
void writePixel(uvec2 pixel, Ray ray, float s)
{
    ivec2 at = ivec2(pixel);
    if (s >= 0.0) {
        vec3 p = rayPoint(ray, s);
        imageStore(colorTarget, at, vec4(shadeHit(ray, p), 1.0));
        imageStore(depthTarget, at, vec4(depthOf(s / ray.scale)));
    } else if ((params.flags & FLAG_CLEAR) != 0u) {
        imageStore(colorTarget, at, unpackUnorm4x8(params.clearColor));
        imageStore(depthTarget, at, vec4(1.0));
    } else if ((params.flags & FLAG_SCENE_DEPTH) != 0u) {
        imageStore(depthTarget, at, vec4(texelFetch(sceneDepth, at, 0).r));
    }
}
