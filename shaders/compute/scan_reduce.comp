#version 460
// Reduce-then-scan, pass 1 (Merrill & Garland 2016, "Single-pass Parallel
// Prefix Scan with Decoupled Look-back", section 3 names the scheme): each
// workgroup sums one tile of WORKGROUP_SIZE * ITEMS elements into a 64-bit
// block sum per component. No workgroup waits on another, so it needs no
// forward-progress guarantee, which Vulkan does not give.
//
// Loads are coalesced: in step j the workgroup reads vectors of four words
// [j * WORKGROUP_SIZE, (j + 1) * WORKGROUP_SIZE) of its tile, consecutive
// invocations consecutive vectors; a sum does not care about order.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(constant_id = 0) const uint SUBGROUP_SIZE = 32;
layout(constant_id = 1) const uint WORKGROUP_SIZE = 256;
layout(constant_id = 2) const uint ITEMS = 16;
layout(constant_id = 3) const uint COMPONENTS = 1;
layout(constant_id = 4) const uint SELECT = 0;
layout(local_size_x_id = 1) in;

layout(set = 0, binding = 0, std430) readonly buffer Input { uint inputWords[]; };
layout(set = 0, binding = 1, std430) writeonly buffer BlockSums { uvec2 blockSums[]; };
layout(set = 0, binding = 2, std430) readonly buffer InputVectors { uvec4 inputVectors[]; }; // Input's bytes
layout(push_constant) uniform Push {
    uint count;      // elements in this segment
    uint firstBlock; // block index of the segment's first tile
    uint blockCount; // tiles in this segment
} p;

#include "subgroup_scan.glsl"
#define SCAN_LOADS_VECTORS
#include "scan_common.glsl"

shared uvec4 subgroupHalves[(WORKGROUP_SIZE + SUBGROUP_SIZE - 1) / SUBGROUP_SIZE];

void main()
{
    uint block = flatWorkgroupIndex();
    if (block >= p.blockCount)
        return; // the whole workgroup: no barrier is skipped by part of it
    uint tileBase = block * WORKGROUP_SIZE * VECTORS;
    uint countWords = p.count * COMPONENTS;
    // 16-bit halves of components 0 and 1, summed exactly: a tile of at most
    // 65536 elements keeps every 32-bit partial sum below 2^32.
    uvec4 halves = uvec4(0u);
    for (uint j = 0u; j < VECTORS; ++j) {
        uint v = tileBase + j * WORKGROUP_SIZE + gl_LocalInvocationIndex;
        if (4u * v >= countWords)
            break;
        uvec4 words = loadVector(v, countWords);
        for (uint k = 0u; k < VECTOR_ELEMENTS; ++k) {
            uvec2 value = vectorElement(words, k);
            halves += uvec4(splitHalves(value.x), splitHalves(value.y));
        }
    }
    halves = subgroupAdd(halves);
    if (subgroupElect())
        subgroupHalves[gl_SubgroupID] = halves;
    barrier();
    if (gl_LocalInvocationIndex == 0u) {
        uvec4 total = uvec4(0u);
        for (uint s = 0u; s < gl_NumSubgroups; ++s)
            total += subgroupHalves[s];
        uint slot = (p.firstBlock + block) * SUM_COMPONENTS;
        blockSums[slot] = joinHalves(total.xy);
        if (SUM_COMPONENTS == 2u)
            blockSums[slot + 1u] = joinHalves(total.zw);
    }
}
