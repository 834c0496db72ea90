// Camera rays for the raycasters (isosurface: raycast/raycast_common.glsl;
// direct volume rendering: dvr/dvr_common.glsl): a pixel's ray, where it
// enters and leaves the clip box of the volume's index space ([0, dims − 1]
// unless the volume is clipped: RayClip), and the 0..1 depth a raster pass
// with the same camera writes. The including shader declares first: `params`
// (eye, forward, right, down, nearPlane, farPlane, flags, origin, step,
// inverseSpacing, extent), the flag constants FLAG_ORTHOGRAPHIC and
// FLAG_SCENE_DEPTH, `sceneDepth`, and a RayClip buffer `rayClip` (vec4 lo,
// hi: the box's corners, within [0, dims − 1], written by the frame's
// "clip" pass; a push-constant block has no room left for them).

struct Ray {
    vec3 origin;    // world, at the image plane (orthographic) or the eye
    vec3 direction; // world; its component along `forward` is 1, so t is the view depth
    vec3 start;     // index space, at s = 0
    vec3 unit;      // index-space direction, unit length
    float scale;    // index-space length per unit of t
    float s0;       // where the ray enters the box
    int samples;    // samples s0 + k × step, k < samples; 0 when it misses
};

bool isOrthographic() { return (params.flags & FLAG_ORTHOGRAPHIC) != 0u; }

// The view depth (along `forward`) stored in a depth buffer as `depth`
// (glm's perspectiveRH_ZO and orthoRH_ZO, render/camera.h).
float viewDepthOf(float depth)
{
    float n = params.nearPlane, f = params.farPlane;
    return isOrthographic() ? n + depth * (f - n) : f * n / (f - depth * (f - n));
}

float depthOf(float viewDepth)
{
    float n = params.nearPlane, f = params.farPlane;
    return isOrthographic() ? (viewDepth - n) / (f - n) : f * (viewDepth - n) / (viewDepth * (f - n));
}

Ray cameraRay(uvec2 pixel)
{
    vec2 ndc = (vec2(pixel) + 0.5) / vec2(params.extent) * 2.0 - 1.0;
    vec3 offset = params.right * ndc.x + params.down * ndc.y;
    Ray ray;
    ray.origin = isOrthographic() ? params.eye + offset : params.eye;
    ray.direction = isOrthographic() ? params.forward : params.forward + offset;
    ray.start = (ray.origin - params.origin) * params.inverseSpacing;
    vec3 d = ray.direction * params.inverseSpacing;
    ray.scale = length(d);
    ray.unit = d / ray.scale;

    // Slabs of the clip box. A ray parallel to a slab (a zero component, of
    // either sign) is inside it everywhere or nowhere: no division by zero
    // decides that.
    vec3 low = rayClip.lo.xyz, corner = rayClip.hi.xyz;
    vec3 a = (low - ray.start) / ray.unit;
    vec3 b = (corner - ray.start) / ray.unit;
    vec3 lo = min(a, b), hi = max(a, b);
    for (int axis = 0; axis < 3; ++axis) {
        if (ray.unit[axis] == 0.0) {
            bool within = ray.start[axis] >= low[axis] && ray.start[axis] <= corner[axis];
            lo[axis] = within ? -1.0 / 0.0 : 1.0 / 0.0;
            hi[axis] = within ? 1.0 / 0.0 : -1.0 / 0.0;
        }
    }
    float enter = max(max(lo.x, lo.y), max(lo.z, params.nearPlane * ray.scale));
    float leave = min(min(hi.x, hi.y), min(hi.z, params.farPlane * ray.scale));
    if ((params.flags & FLAG_SCENE_DEPTH) != 0u) {
        float scene = texelFetch(sceneDepth, ivec2(pixel), 0).r;
        leave = min(leave, viewDepthOf(scene) * ray.scale);
    }
    ray.s0 = enter;
    // A box with lo > hi on an axis (clipped to nothing) has no inside: the slabs above would swap its faces.
    bool empty = any(greaterThan(low, corner));
    ray.samples = leave >= enter && !empty ? int(floor((leave - enter) / params.step)) + 1 : 0;
    return ray;
}

float rayDistance(Ray ray, int k) { return ray.s0 + float(k) * params.step; }
vec3 rayPoint(Ray ray, float s) { return ray.start + s * ray.unit; }
