#version 460
// Reduce-then-scan, the block-sum levels on the way down: each workgroup
// turns p.span consecutive 64-bit block sums into exclusive 64-bit block
// offsets, in place, starting from its own offset in the level above
// (scan_blocks_reduce made those sums, and this pass already turned them into
// offsets). The top level (p.top = 1) is one workgroup that starts from 0 and
// writes the grand totals.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(constant_id = 0) const uint SUBGROUP_SIZE = 32;
layout(constant_id = 1) const uint WORKGROUP_SIZE = 256;
layout(constant_id = 2) const uint ITEMS = 8;
layout(constant_id = 3) const uint COMPONENTS = 1;
layout(constant_id = 4) const uint SELECT = 0;
layout(local_size_x_id = 1) in;

layout(set = 0, binding = 0, std430) buffer Level { uvec2 blockSums[]; };
// Offsets of this level's spans; unread at the top level.
layout(set = 0, binding = 1, std430) readonly buffer Above { uvec2 aboveOffsets[]; };
// SUM_COMPONENTS 64-bit totals (low word first); written at the top level only.
layout(set = 0, binding = 2, std430) writeonly buffer Totals { uvec2 totals[]; };
layout(push_constant) uniform Push {
    uint blockCount; // blocks in this level
    uint span;       // blocks per workgroup, at most WORKGROUP_SIZE * ITEMS
    uint top;        // 1: the one workgroup of the top level
} p;

#include "subgroup_scan.glsl"
#define SCAN_WALKS_BLOCK_SUMS
#include "scan_common.glsl"

void main()
{
    uint first = firstBlockOfInvocation();
    for (uint c = 0u; c < SUM_COMPONENTS; ++c) {
        uvec2 sum = uvec2(0u);
        for (uint j = 0u; j < ITEMS; ++j)
            if (inWorkgroupSpan(first + j))
                sum = add64(sum, blockSums[(first + j) * SUM_COMPONENTS + c]);
        uvec2 total;
        uvec2 running = workgroupExclusiveAdd64(sum, total);
        if (p.top == 0u)
            running = add64(running, aboveOffsets[flatWorkgroupIndex() * SUM_COMPONENTS + c]);
        else if (gl_LocalInvocationIndex == 0u)
            totals[c] = total;
        for (uint j = 0u; j < ITEMS; ++j) {
            uint slot = (first + j) * SUM_COMPONENTS + c;
            if (inWorkgroupSpan(first + j)) {
                uvec2 value = blockSums[slot];
                blockSums[slot] = running;
                running = add64(running, value);
            }
        }
    }
}
