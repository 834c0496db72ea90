#version 460
// Direct volume rendering by warp marching (Wang, Yang, Cao, section 4,
// carried over from isosurfaces): one subgroup per ray. Each cycle lane i
// composites its own run of RUN samples, i × RUN after the cycle's first,
// and the runs combine front to back by an inclusive subgroup scan of the
// "over" operator, which is associative:
//   (C1, A1) over (C2, A2) = (C1 + (1 − A1) C2, A1 + (1 − A1) A2).
// The last lane's result is the cycle's; termination is tested once a cycle.
// The samples run along the ray, so the texture cache serves a view along
// x, where one invocation per ray reads across slices. Any subgroup size.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_vote : require

#include "dvr_common.glsl"

layout(local_size_x_id = 5) in; // SUBGROUP_SIZE × TILE_X × TILE_Y
layout(constant_id = 5) const uint WORKGROUP_SIZE = 128;
layout(constant_id = 6) const uint RUN = 2; // samples a lane composites per cycle

Composite march(DvrRay r)
{
    Composite c = Composite(vec3(0.0), 0.0, -1.0);
    int samples = r.ray.samples;
    int lane = int(gl_SubgroupInvocationID), width = int(gl_SubgroupSize);
    float terminate = terminationOpacity(), depthAt = depthOpacity();
    int stride = skipStride();
    int k = 0;
    while (k < samples) {
        if (skipping()) {
            // Empty space a subgroup wide: lane i looks i strides ahead, and
            // the ray jumps to the first stride whose brick is visible (or
            // past all of them), so a cycle composites only where there is
            // something to composite.
            int look = k + lane * stride;
            uvec4 visibleLanes = subgroupBallot(look < samples && brickVisible(indexPoint(r, look)));
            if (visibleLanes == uvec4(0)) {
                k += width * stride;
                continue;
            }
            k += int(subgroupBallotFindLSB(visibleLanes)) * stride;
        }
        int first = k + lane * int(RUN);
        // The lane's run: its samples' colour and opacity, composited.
        vec3 runColor = vec3(0.0);
        float runAlpha = 0.0;
        float alphas[RUN];
        bool visible = false;
        for (int j = 0; j < int(RUN); ++j) {
            int index = first + j;
            alphas[j] = 0.0;
            if (index >= samples)
                break;
            // A lookup at the run's start and every `stride` samples of the
            // ray: each vouches for the samples up to the next.
            if (skipping() && (j == 0 || index % stride == 0))
                visible = brickVisible(indexPoint(r, index));
            if (skipping() && !visible)
                continue;
            vec4 s = classifySample(sampleAt(r, index), indexPoint(r, index));
            alphas[j] = s.a;
            runColor += (1.0 - runAlpha) * s.a * s.rgb;
            runAlpha += (1.0 - runAlpha) * s.a;
        }
        // Inclusive scan of "over" across the lanes: lane i then holds runs 0..i.
        vec3 scanColor = runColor;
        float scanAlpha = runAlpha;
        for (uint offset = 1u; offset < gl_SubgroupSize; offset *= 2u) {
            vec3 frontColor = subgroupShuffleUp(scanColor, offset);
            float frontAlpha = subgroupShuffleUp(scanAlpha, offset);
            if (gl_SubgroupInvocationID >= offset) {
                scanColor = frontColor + (1.0 - frontAlpha) * scanColor;
                scanAlpha = frontAlpha + (1.0 - frontAlpha) * scanAlpha;
            }
        }
        // Depth (the branch is uniform: c is the same in every lane): the lane whose run takes the ray's opacity past the threshold finds the sample.
        if (c.depthS < 0.0) {
            float beforeRuns = lane == 0 ? 0.0 : subgroupShuffleUp(scanAlpha, 1u);
            float before = c.alpha + (1.0 - c.alpha) * beforeRuns;
            float after = c.alpha + (1.0 - c.alpha) * scanAlpha;
            bool crosses = before < depthAt && after >= depthAt;
            float depthS = -1.0;
            if (crosses) {
                float a = before;
                for (int j = 0; j < int(RUN); ++j) {
                    a += (1.0 - a) * alphas[j];
                    if (a >= depthAt) {
                        depthS = rayDistance(r.ray, first + j);
                        break;
                    }
                }
            }
            uvec4 ballot = subgroupBallot(crosses);
            if (ballot != uvec4(0))
                c.depthS = subgroupShuffle(depthS, subgroupBallotFindLSB(ballot));
        }
        uint last = gl_SubgroupSize - 1u;
        vec3 cycleColor = subgroupShuffle(scanColor, last);
        float cycleAlpha = subgroupShuffle(scanAlpha, last);
        c.color += (1.0 - c.alpha) * cycleColor;
        c.alpha += (1.0 - c.alpha) * cycleAlpha;
        if (c.alpha >= terminate)
            break;
        k += width * int(RUN);
    }
    return c;
}

void main()
{
    loadTable();
    uint rayInGroup = gl_SubgroupID;
    uvec2 pixel = gl_WorkGroupID.xy * uvec2(TILE_X, TILE_Y) + uvec2(rayInGroup % TILE_X, rayInGroup / TILE_X);
    // Uniform per subgroup: a ray past the image's edge leaves as a whole.
    if (any(greaterThanEqual(pixel, params.extent)))
        return;
    DvrRay r = dvrRay(pixel);
    Composite c = march(r);
    if (subgroupElect())
        writePixel(pixel, r, c);
}
