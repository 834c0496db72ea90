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
// lookup per lane, far apart along the ray, between cycles.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_vote : require

#define TAIL_RAYS_ACCESS readonly
#include "raycast_common.glsl"

layout(local_size_x_id = 5) in; // SUBGROUP_SIZE × TILE_X × TILE_Y
layout(constant_id = 5) const uint WORKGROUP_SIZE = 128;
// The tail pass: finish the rays the Standard mapping handed on
// (iso_standard.comp, TailRays), not a tile of the image.
layout(constant_id = 9) const bool TAIL_RAYS = false;
// Cycles whose samples are loaded together, one round trip for all. The
// mapping over the whole image is bound by the instructions it issues and
// takes 1 (batches of four made it slower on the H100); the tail pass is
// bound by its longest ray's chain of round trips and takes more.
layout(constant_id = 11) const uint CYCLES_PER_LOAD = 1;

// The index of the first sample at distance s or beyond.
int sampleFrom(Ray ray, float s) { return int(ceil((s - ray.s0) / params.step)); }

// The distance of the first crossing, or -1, testing samples from `start`
// on (those before it are on the first sample's side). Every branch is
// uniform in the subgroup.
float march(Ray ray, int start)
{
    if (ray.samples == 0)
        return -1.0;
    float first = sampleAt(ray, 0);
    // A first sample equal to the isovalue is inside, as in the extractors,
    // not a hit by itself: a volume flat at the isovalue has no surface
    // (no triangles from any extractor), so no ray may hit its bounding box.
    // Where the field leaves the inside after it, the crossing is
    // interpolated at it (f = 0) like any other.
    bool inside = isInside(first);
    int lane = int(gl_SubgroupInvocationID);
    int width = int(gl_SubgroupSize);
    float end = rayDistance(ray, ray.samples - 1);
    // Lookups skipReach() apart leave no sample unchecked (raycast_common.glsl).
    float reach = skipReach();
    int k = max(start, 1); // samples before k are on the ray's side
    while (k < ray.samples) {
        if (SKIP_EMPTY && BRICK > 2u) {
            // Empty-space skipping, a subgroup wide: lane i looks at the
            // point i × reach ahead, and the ray jumps past the lookups
            // before the first one that finds a brick it cannot skip.
            float from = rayDistance(ray, k);
            float look = from + float(lane) * reach;
            bool pastEnd = look > end + reach;
            bool blocked = !pastEnd && !canSkipBrick(brickOf(rayPoint(ray, min(look, end))), inside);
            uvec4 blockedLanes = subgroupBallot(blocked);
            if (blockedLanes == uvec4(0)) {
                if (subgroupAny(pastEnd))
                    return -1.0; // vouched for up to the ray's end
                k = max(k + 1, sampleFrom(ray, from + float(width - 1) * reach));
                continue;
            }
            uint firstBlocked = subgroupBallotFindLSB(blockedLanes);
            if (firstBlocked > 0u)
                k = max(k, sampleFrom(ray, from + float(firstBlocked - 1u) * reach));
        }
        // One cycle: lane 0 re-takes sample k - 1 (on the ray's side: the
        // step back), lanes 1.. take the samples after it. Cycle c of a
        // load starts where cycle c - 1 ended, so each is one as above.
        float values[CYCLES_PER_LOAD];
        for (uint c = 0u; c < CYCLES_PER_LOAD; ++c) {
            int index = k - 1 + int(c) * (width - 1) + lane;
            values[c] = index < ray.samples ? sampleAt(ray, index) : 0.0;
        }
        for (uint c = 0u; c < CYCLES_PER_LOAD; ++c) {
            int base = k - 1;
            int index = base + lane;
            bool valid = index < ray.samples;
            bool crossing = valid && lane > 0 && isInside(values[c]) != inside;
            uvec4 crossings = subgroupBallot(crossing);
            if (crossings != uvec4(0)) {
                uint hitLane = subgroupBallotFindLSB(crossings);
                float after = subgroupShuffle(values[c], hitLane);
                float before = subgroupShuffle(values[c], hitLane - 1u);
                return crossingDistance(ray, base + int(hitLane), before, after);
            }
            k = base + width;
            if (k >= ray.samples)
                break;
        }
    }
    return -1.0;
}

void marchTail()
{
    uint rays = tailCount;
    uint stride = gl_NumWorkGroups.x * gl_NumSubgroups;
    for (uint i = gl_WorkGroupID.x * gl_NumSubgroups + gl_SubgroupID; i < rays; i += stride) {
        uvec2 entry = tailRays[i];
        uvec2 pixel = uvec2(entry.x & 0xFFFFu, entry.x >> 16);
        Ray ray = cameraRay(pixel);
        float s = march(ray, int(entry.y));
        if (subgroupElect())
            writePixel(pixel, ray, s);
    }
}

void main()
{
    if (TAIL_RAYS) {
        marchTail();
        return;
    }
    uint rayInGroup = gl_SubgroupID;
    uvec2 tile = uvec2(TILE_X, TILE_Y);
    uvec2 pixel = gl_WorkGroupID.xy * tile + uvec2(rayInGroup % TILE_X, rayInGroup / TILE_X);
    // Uniform per subgroup: a ray past the image's edge leaves as a whole.
    if (any(greaterThanEqual(pixel, params.extent)))
        return;
    Ray ray = cameraRay(pixel);
    float s = march(ray, 1);
    if (subgroupElect())
        writePixel(pixel, ray, s);
}
