#version 460
// Exercises the subgroup operations the extractors and raycasters rely on,
// so a test can check them against a CPU model at every subgroup size.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require

layout(constant_id = 0) const uint SUBGROUP_SIZE = 32;
layout(constant_id = 1) const uint WORKGROUP_SIZE = 128;
layout(local_size_x_id = 1) in;

#include "subgroup_scan.glsl"

layout(set = 0, binding = 0) readonly buffer Inputs { uint inputs[]; };
// 16 words per invocation, see tests/gpu/test_subgroup_ops.cpp.
layout(set = 0, binding = 1) writeonly buffer Outputs { uint outputs[]; };
layout(push_constant) uniform Parameters { uint count; } parameters;

void main()
{
    uint index = gl_GlobalInvocationID.x;
    bool valid = index < parameters.count;
    uint value = valid ? inputs[index] : 0u;

    uint reduced = subgroupAdd(value);
    uint inclusive = subgroupInclusiveAdd(value);
    uint exclusive = subgroupExclusiveAdd(value);
    uvec4 odd = subgroupBallot((value & 1u) != 0u);
    uint oddCount = subgroupBallotBitCount(odd);
    uint oddRank = subgroupBallotExclusiveBitCount(odd);
    uint next = subgroupShuffle(value, (gl_SubgroupInvocationID + 1u) % gl_SubgroupSize);
    uint first = subgroupBroadcastFirst(value);
    uint maximum = subgroupMax(value);
    uvec2 total;
    uvec2 scanned = workgroupExclusiveAdd2(uvec2(value, value & 7u), total);

    if (!valid)
        return;
    uint o = index * 16u;
    outputs[o + 0] = gl_SubgroupSize;
    outputs[o + 1] = gl_SubgroupID;
    outputs[o + 2] = gl_SubgroupInvocationID;
    outputs[o + 3] = gl_NumSubgroups;
    outputs[o + 4] = reduced;
    outputs[o + 5] = inclusive;
    outputs[o + 6] = exclusive;
    outputs[o + 7] = oddCount;
    outputs[o + 8] = oddRank;
    outputs[o + 9] = next;
    outputs[o + 10] = first;
    outputs[o + 11] = maximum;
    outputs[o + 12] = scanned.x;
    outputs[o + 13] = scanned.y;
    outputs[o + 14] = total.x;
    outputs[o + 15] = total.y;
}
