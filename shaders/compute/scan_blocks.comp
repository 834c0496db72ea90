#version 460
// Reduce-then-scan, pass 2 of 3: one workgroup turns the 64-bit block sums
// into exclusive 64-bit block offsets, in place, and writes the grand total.
// It walks the blocks in chunks of WORKGROUP_SIZE * ITEMS with a running
// carry: a million blocks (a billion elements) take about a hundred chunks.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(constant_id = 0) const uint SUBGROUP_SIZE = 32;
layout(constant_id = 1) const uint WORKGROUP_SIZE = 256;
layout(constant_id = 2) const uint ITEMS = 8;
layout(constant_id = 3) const uint COMPONENTS = 1;
layout(constant_id = 4) const uint SELECT = 0;
layout(local_size_x_id = 1) in;

layout(set = 0, binding = 0, std430) buffer BlockSums { uvec2 blockSums[]; };
// SUM_COMPONENTS 64-bit totals (low word first).
layout(set = 0, binding = 1, std430) writeonly buffer Totals { uvec2 totals[]; };
layout(push_constant) uniform Push { uint blockCount; } p;

#include "subgroup_scan.glsl"
#include "scan_common.glsl"

void main()
{
    uvec2 carry[2] = uvec2[2](uvec2(0u), uvec2(0u));
    for (uint base = 0u; base < p.blockCount; base += WORKGROUP_SIZE * ITEMS) {
        uint first = base + scanRank() * ITEMS;
        for (uint c = 0u; c < SUM_COMPONENTS; ++c) {
            uvec2 sum = uvec2(0u);
            for (uint j = 0u; j < ITEMS; ++j)
                if (first + j < p.blockCount)
                    sum = add64(sum, blockSums[(first + j) * SUM_COMPONENTS + c]);
            uvec2 chunkTotal;
            uvec2 running = add64(carry[c], workgroupExclusiveAdd64(sum, chunkTotal));
            for (uint j = 0u; j < ITEMS; ++j) {
                uint slot = (first + j) * SUM_COMPONENTS + c;
                if (first + j < p.blockCount) {
                    uvec2 value = blockSums[slot];
                    blockSums[slot] = running;
                    running = add64(running, value);
                }
            }
            carry[c] = add64(carry[c], chunkTotal);
        }
    }
    if (gl_LocalInvocationIndex == 0u)
        for (uint c = 0u; c < SUM_COMPONENTS; ++c)
            totals[c] = carry[c];
}
