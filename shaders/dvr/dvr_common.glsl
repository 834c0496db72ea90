// What every direct-volume-rendering mapping shares (dvr_march.comp,
// dvr_warp.comp): the parameters, the camera rays, the sampling rule, the
// transfer function, shading, compositing and how a pixel is written. One
// rule, so the mappings composite the same samples in the same order.
//
// The sampling rule (the same in tests/gpu/dvr_reference.cpp): the camera
// rays of the isosurface raycaster (camera_rays.glsl), samples at
// s0 + k × step through the box [0, dims − 1] of the volume's index space (the
// clip box within it, when the volume is clipped) and
// in front of the scene depth, the hardware's trilinear filter, the value
// looked up in the transfer table (linear between entries, clamped), its
// opacity a per voxel corrected to 1 − (1 − a)^step, composited front to back:
//   C += (1 − A) × α × rgb,  A += (1 − A) × α.
// NaN samples are transparent. The image may be stored turned about y by
// quarter turns (rotate_volume.glsl): samples are taken where the turn moved
// them, so the picture does not change.
#extension GL_GOOGLE_include_directive : require

layout(constant_id = 0) const uint SUBGROUP_SIZE = 32;
layout(constant_id = 1) const uint TILE_X = 8;
layout(constant_id = 2) const uint TILE_Y = 8;
layout(constant_id = 3) const uint BRICK = 8;
layout(constant_id = 4) const uint TABLE_ENTRIES = 256;

const uint FLAG_ORTHOGRAPHIC = 1u;
const uint FLAG_CLEAR = 2u;       // the background is the clear colour; otherwise what the target holds
const uint FLAG_SCENE_DEPTH = 4u; // rays stop at sceneDepth (what earlier raster passes drew)
const uint FLAG_SHADE = 8u;       // gradient shading where the transfer function is opaque enough
const uint FLAG_SKIP = 16u;       // skip bricks the transfer function makes transparent
const uint TURNS_SHIFT = 8u;      // bits 8-9: quarter turns about y the image is stored in

// 128 bytes, the least maxPushConstantsSize any Vulkan device offers.
layout(push_constant) uniform DvrParameters {
    vec3 eye;            float step;        // world; step in voxels along the ray
    vec3 forward;        float nearPlane;   // unit view direction
    vec3 right;          float farPlane;    // world offset per unit of NDC x
    vec3 down;           uint flags;        // world offset per unit of NDC y (Vulkan: +y is down)
    vec3 origin;         uint thresholds;   // packUnorm2x16(termination opacity, depth opacity)
    vec3 inverseSpacing; float valueScale;  // texel → data units
    ivec3 dims;          uint clearColor;   // the data's dims (the image may be padded); packed RGBA8
    uvec2 extent;        float tableLo;     float tableScale; // table coordinate = (value − lo) × scale
} params;

layout(set = 0, binding = 0) uniform sampler3D volumeTexture;
// Per brick, 8 bits packed four to a word: 1 where the transfer function
// gives some sample of the brick or its neighbours opacity (classify_visible_bricks.comp).
layout(set = 0, binding = 1, std430) readonly buffer BrickClasses { uint brickClassWords[]; };
layout(set = 0, binding = 2, rgba8) uniform image2D colorTarget;
layout(set = 0, binding = 3, r32f) uniform image2D depthTarget;
layout(set = 0, binding = 4) uniform sampler2D sceneDepth;
layout(set = 0, binding = 5, std430) readonly buffer TransferTable { vec4 transferTable[]; };

// The box rays sample (camera_rays.glsl): [0, dims − 1], or the clip box within it.
layout(set = 0, binding = 6, std430) readonly buffer RayClip { vec4 lo; vec4 hi; } rayClip;

#include "camera_rays.glsl"

// The table in shared memory: every invocation of the workgroup loads part
// of it, before any returns.
shared vec4 table[TABLE_ENTRIES];

void loadTable()
{
    uint invocations = gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z;
    for (uint i = gl_LocalInvocationIndex; i < TABLE_ENTRIES; i += invocations)
        table[i] = transferTable[i];
    barrier();
}

float terminationOpacity() { return unpackUnorm2x16(params.thresholds).x; }
float depthOpacity() { return unpackUnorm2x16(params.thresholds).y; }

// --- where samples are stored -------------------------------------------
int quarterTurns() { return int(params.flags >> TURNS_SHIFT) & 3; }

// One quarter turn about y moves (x, y, z) to (n − 1 − z, y, x), n the padded side.
vec3 storedPoint(vec3 p)
{
    float last = float(textureSize(volumeTexture, 0).x - 1);
    for (int i = 0; i < quarterTurns(); ++i)
        p = vec3(last - p.z, p.y, p.x);
    return p;
}

vec3 storedVector(vec3 v)
{
    for (int i = 0; i < quarterTurns(); ++i)
        v = vec3(-v.z, v.y, v.x);
    return v;
}

vec3 originalVector(vec3 v)
{
    for (int i = 0; i < quarterTurns(); ++i)
        v = vec3(v.z, v.y, -v.x);
    return v;
}

// The field at a point of the stored image, in data units.
float storedValue(vec3 q) { return texture(volumeTexture, (q + 0.5) / vec3(textureSize(volumeTexture, 0))).r * params.valueScale; }

// A ray in both spaces: index space (for bricks and shading) and the stored image's.
struct DvrRay {
    Ray ray;
    vec3 storedStart, storedUnit;
};

DvrRay dvrRay(uvec2 pixel)
{
    DvrRay r;
    r.ray = cameraRay(pixel);
    r.storedStart = storedPoint(r.ray.start);
    r.storedUnit = storedVector(r.ray.unit);
    return r;
}

float sampleAt(DvrRay r, int k) { return storedValue(r.storedStart + rayDistance(r.ray, k) * r.storedUnit); }
vec3 indexPoint(DvrRay r, int k) { return rayPoint(r.ray, rayDistance(r.ray, k)); }

// --- empty-space skipping ------------------------------------------------
// A lookup at a point vouches for every sample within skipReach() voxels of
// it: a brick's class covers its 26 neighbours, with a voxel to spare.
float skipReach() { return float(BRICK) - 2.0; }
bool skipping() { return (params.flags & FLAG_SKIP) != 0u; }
// Samples one lookup vouches for.
int skipStride() { return int(floor(max(skipReach(), 0.0) / params.step)) + 1; }

bool brickVisible(vec3 p)
{
    ivec3 brick = clamp(ivec3(floor(p)), ivec3(0), params.dims - 1) / int(BRICK);
    ivec3 counts = (params.dims + int(BRICK) - 1) / int(BRICK);
    uint index = uint(brick.x + counts.x * (brick.y + counts.y * brick.z));
    return bitfieldExtract(brickClassWords[index >> 2], int(index & 3u) * 8, 8) != 0u;
}

// --- classification and shading -----------------------------------------
vec4 transfer(float value)
{
    if (isnan(value))
        return vec4(0.0);
    float u = clamp((value - params.tableLo) * params.tableScale, 0.0, float(TABLE_ENTRIES - 1u));
    uint i = min(uint(u), TABLE_ENTRIES - 2u);
    return mix(table[i], table[i + 1u], u - float(i));
}

// Samples whose table opacity (per voxel) is at least this are shaded.
const float kShadeOpacity = 0.1;

// Central differences one voxel each way, clamped to the box as the
// unpadded, unturned image's edge clamps.
vec3 gradientAt(vec3 p)
{
    vec3 hi = vec3(params.dims - 1);
    vec3 g;
    for (int axis = 0; axis < 3; ++axis) {
        vec3 e = vec3(0.0);
        e[axis] = 1.0;
        g[axis] = storedValue(storedPoint(clamp(p + e, vec3(0.0), hi))) -
                  storedValue(storedPoint(clamp(p - e, vec3(0.0), hi)));
    }
    return g;
}

// A headlight, both sides lit; a sample without a gradient keeps its colour.
vec3 shade(vec3 rgb, vec3 p)
{
    vec3 normal = -gradientAt(p) * params.inverseSpacing;
    float len = length(normal);
    if (!(len > 0.0))
        return rgb;
    vec3 world = params.origin + p / params.inverseSpacing;
    vec3 toEye = isOrthographic() ? -params.forward : normalize(params.eye - world);
    float diffuse = abs(dot(normal / len, toEye));
    return rgb * (0.3 + 0.7 * diffuse) + vec3(0.2 * pow(diffuse, 32.0));
}

// One sample's colour and opacity for a step of params.step voxels.
vec4 classifySample(float value, vec3 p)
{
    vec4 c = transfer(value);
    float alpha = 1.0 - exp2(log2(1.0 - c.a) * params.step);
    if (alpha <= 0.0)
        return vec4(0.0);
    vec3 rgb = (params.flags & FLAG_SHADE) != 0u && c.a >= kShadeOpacity ? shade(c.rgb, p) : c.rgb;
    return vec4(rgb, alpha);
}

// --- the pixel -----------------------------------------------------------
struct Composite {
    vec3 color;  // premultiplied
    float alpha;
    float depthS; // distance along the ray (voxels) where alpha first reached depthOpacity(); −1: never
};

void writePixel(uvec2 pixel, DvrRay r, Composite c)
{
    ivec2 at = ivec2(pixel);
    bool clear = (params.flags & FLAG_CLEAR) != 0u;
    vec3 background = clear ? unpackUnorm4x8(params.clearColor).rgb : imageLoad(colorTarget, at).rgb;
    imageStore(colorTarget, at, vec4(c.color + (1.0 - c.alpha) * background, 1.0));
    if (c.depthS >= 0.0)
        imageStore(depthTarget, at, vec4(depthOf(c.depthS / r.ray.scale)));
    else if (clear)
        imageStore(depthTarget, at, vec4(1.0));
    else if ((params.flags & FLAG_SCENE_DEPTH) != 0u)
        imageStore(depthTarget, at, vec4(texelFetch(sceneDepth, at, 0).r));
}
