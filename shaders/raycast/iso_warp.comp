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
// 128 bits wide. Empty space is skipped a subgroup wide as well: one brick
// lookup per lane, far apart along the ray, ahead of each cycle.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_vote : require

#include "raycast_common.glsl"

layout(local_size_x_id = 5) in; // SUBGROUP_SIZE × TILE_X × TILE_Y
layout(constant_id = 5) const uint WORKGROUP_SIZE = 128;

// The index of the first sample at distance s or beyond.
int sampleFrom(Ray ray, float s) { return int(ceil((s - ray.s0) / params.step)); }

// The distance of the first crossing, or -1. Every branch is uniform in the subgroup.
//
// A cycle is one round trip to memory: its samples and the brick lookups
// for the stretch after it are loaded together, and only then tested. A ray
// is latency-bound (a subgroup per ray leaves few samples per load), so the
// count of round trips, not of loads, is its cost: the first sample comes
// with the first cycle's, and a stretch of bricks that hold surface costs one
// round trip per cycle instead of a lookup and then a cycle.
float march(Ray ray)
{
    if (ray.samples == 0)
        return -1.0;
    int lane = int(gl_SubgroupInvocationID);
    int width = int(gl_SubgroupSize);
    float end = rayDistance(ray, ray.samples - 1);
    // A brick's class covers every voxel within a brick of it, so one lookup
    // vouches for the samples within BRICK - 2 voxels of its point (one voxel
    // spare for the hardware filter's rounding): lookups that far apart
    // leave no sample unchecked.
    float reach = float(BRICK) - 2.0;
    bool skipping = SKIP_EMPTY && BRICK > 2u;
    bool inside = false;
    // The cycle takes samples base .. base + width - 1. Lane 0 takes sample 0
    // in the first cycle and then re-takes the last sample known to be on the
    // ray's side (the step back), so a crossing between cycles is a pair of
    // neighbouring lanes.
    int base = 0;
    for (bool firstCycle = true; firstCycle || base + 1 < ray.samples; firstCycle = false) {
        int index = base + lane;
        bool valid = index < ray.samples;
        float value = valid ? sampleAt(ray, index) : 0.0;
        // Lane i looks i × reach past the cycle's last sample.
        float from = rayDistance(ray, base + width);
        float look = from + float(lane) * reach;
        bool pastEnd = look > end + reach;
        uint brickClass = skipping && !pastEnd ? brickClassOf(brickOf(rayPoint(ray, min(look, end)))) : 0u;

        if (firstCycle) {
            float first = subgroupBroadcast(value, 0u);
            if (first == params.iso)
                return ray.s0;
            inside = isInside(first);
        }
        bool crossing = valid && lane > 0 && isInside(value) != inside;
        uvec4 crossings = subgroupBallot(crossing);
        if (crossings != uvec4(0)) {
            uint hitLane = subgroupBallotFindLSB(crossings);
            float after = subgroupShuffle(value, hitLane);
            float before = subgroupShuffle(value, hitLane - 1u);
            return crossingDistance(ray, base + int(hitLane), before, after);
        }
        int next = base + width - 1; // the last sample taken, on the ray's side
        if (skipping) {
            // Jump past the lookups before the first one that finds a brick
            // the ray cannot skip.
            bool blocked = !pastEnd && !canSkipClass(brickClass, inside);
            uvec4 blockedLanes = subgroupBallot(blocked);
            if (blockedLanes == uvec4(0)) {
                if (subgroupAny(pastEnd))
                    return -1.0; // vouched for up to the ray's end
                next = max(next, sampleFrom(ray, from + float(width - 1) * reach) - 1);
            } else {
                uint firstBlocked = subgroupBallotFindLSB(blockedLanes);
                if (firstBlocked > 0u)
                    next = max(next, sampleFrom(ray, from + float(firstBlocked - 1u) * reach) - 1);
            }
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
