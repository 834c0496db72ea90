#version 460
// Reduce-then-scan, one level up the block-sum hierarchy: each workgroup sums
// p.span consecutive 64-bit block sums (per component) into one sum of the
// level above. Repeated until a level fits one workgroup, so no pass ever
// walks all blocks alone (scan_passes.h).
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(constant_id = 0) const uint SUBGROUP_SIZE = 32;
layout(constant_id = 1) const uint WORKGROUP_SIZE = 256;
layout(constant_id = 2) const uint ITEMS = 8;
layout(constant_id = 3) const uint COMPONENTS = 1;
layout(constant_id = 4) const uint SELECT = 0;
layout(local_size_x_id = 1) in;

layout(set = 0, binding = 0, std430) readonly buffer Level { uvec2 blockSums[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Above { uvec2 aboveSums[]; };
layout(push_constant) uniform Push {
    uint blockCount; // blocks in this level
    uint span;       // blocks per workgroup, at most WORKGROUP_SIZE * ITEMS
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
        workgroupExclusiveAdd64(sum, total);
        if (gl_LocalInvocationIndex == 0u)
            aboveSums[flatWorkgroupIndex() * SUM_COMPONENTS + c] = total;
    }
}
