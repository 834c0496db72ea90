#version 460
// Isosurface raycasting by Warp Marching (Wang, Yang, Cao, section 4): one
// subgroup per ray. Each cycle every lane takes one sample along the ray,
// a ballot of "this sample is on the other side" finds the first lane past
// the surface, and the crossing is interpolated with the sample of the lane
// before it, brought over by a shuffle. Each cycle steps back one sample, so
// its lane 0 is the previous cycle's last sample and a crossing between two
// cycles is still a pair of neighbouring lanes (their figure 5, case C).
// Samples run along the ray, so the texture cache is served well facing ZY,
// where the Standard mapping's is not. Any subgroup size: the ballot is
// 128 bits wide.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_vote : require

#include "raycast_common.glsl"

layout(local_size_x_id = 5) in; // SUBGROUP_SIZE × TILE_X × TILE_Y
layout(constant_id = 5) const uint WORKGROUP_SIZE = 128;

// The distance of the first crossing, or -1. Every branch is uniform in the subgroup.
float march(Ray ray)
{
    if (ray.samples == 0)
        return -1.0;
    float first = sampleAt(ray, 0);
    if (first == params.iso)
        return ray.s0;
    bool inside = isInside(first);
    int lane = int(gl_SubgroupInvocationID);
    int width = int(gl_SubgroupSize);
    for (int base = 0; base < ray.samples;) {
        int k = base + lane;
        bool valid = k < ray.samples;
        vec3 p = rayPoint(ray, rayDistance(ray, k));
        bool skipped = SKIP_EMPTY && valid && canSkipBrick(brickOf(p), inside);
        bool taken = valid && !skipped;
        float value = taken ? fieldAt(p) : 0.0;
        uvec4 crossings = subgroupBallot(taken && isInside(value) != inside);
        if (subgroupAny(taken && isInside(value) != inside)) {
            // Lane 0 holds a sample already known to be on the ray's side
            // (the ray's first, or the previous cycle's last), so first >= 1.
            uint hitLane = subgroupBallotFindLSB(crossings);
            float after = subgroupShuffle(value, hitLane);
            float before = subgroupShuffle(value, hitLane - 1u);
            bool beforeTaken = subgroupShuffle(taken, hitLane - 1u);
            int hit = base + int(hitLane);
            if (!beforeTaken)
                before = sampleAt(ray, hit - 1);
            return crossingDistance(ray, hit, before, after);
        }
        int next = base + width - 1; // step back one sample
        if (SKIP_EMPTY && subgroupAll(skipped || !valid)) {
            // The whole cycle lay in skipped bricks: go on from the last
            // sample of the last lane's brick (known to be on the ray's side).
            int last = base + width - 1;
            ivec3 brick = brickOf(rayPoint(ray, rayDistance(ray, last)));
            next = max(next, sampleAfterBrick(ray, brick, last) - 1);
        }
        base = next;
    }
    return -1.0;
}

void main()
{
    uint rayInGroup = gl_SubgroupID;
    uvec2 tile = uvec2(TILE_X, TILE_Y);
    uvec2 pixel = gl_WorkGroupID.xy * tile + uvec2(rayInGroup % TILE_X, rayInGroup / TILE_X);
    // Uniform per subgroup: a ray past the image's edge leaves as a whole.
    if (any(greaterThanEqual(pixel, params.extent)))
        return;
    Ray ray = cameraRay(pixel);
    float s = march(ray);
    if (subgroupElect())
        writePixel(pixel, ray, s);
}
