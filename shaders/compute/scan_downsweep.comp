#version 460
// Reduce-then-scan, the last pass: each workgroup rescans its tile, adds its
// block offset, and writes either the exclusive prefix of every element
// (SELECT 0; modulo 2^32 per component, the 64-bit total is in the totals
// buffer) or, for compaction (SELECT 1), the index of every selected element
// at its rank.
//
// Coalesced, with no shared-memory transpose: subgroup s owns the run of
// gl_SubgroupSize * ITEMS consecutive elements at s * gl_SubgroupSize * ITEMS
// in the tile and walks it in ITEMS rows of gl_SubgroupSize, one element per
// lane, so each row is one contiguous load and one contiguous store. A row is
// scanned with one subgroup scan, rows are chained by the running run total
// (the last lane's inclusive sum), and one workgroup scan of the run totals
// places the runs.
//
// In place: every invocation stores exactly the elements it loaded, after
// loading all of them, so the output may be the input.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require

layout(constant_id = 0) const uint SUBGROUP_SIZE = 32;
layout(constant_id = 1) const uint WORKGROUP_SIZE = 256;
layout(constant_id = 2) const uint ITEMS = 16; // at most 32: the selection flags are one uint
layout(constant_id = 3) const uint COMPONENTS = 1;
layout(constant_id = 4) const uint SELECT = 0;
layout(local_size_x_id = 1) in;

layout(set = 0, binding = 0, std430) readonly buffer Input { uint inputWords[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Output { uint outputWords[]; };
layout(set = 0, binding = 2, std430) readonly buffer BlockOffsets { uvec2 blockOffsets[]; };
layout(push_constant) uniform Push {
    uint count;      // elements in this segment
    uint firstBlock; // block index of the segment's first tile
    uint blockCount; // tiles in this segment
    uint firstIndex; // index of the segment's first element (compaction output)
} p;

#include "subgroup_scan.glsl"
#define SCAN_LOADS_ELEMENTS
#include "scan_common.glsl"

// Inclusive subgroup scan of the summed components only (a uint scan costs
// half a uvec2 one).
uvec2 subgroupInclusiveSum(uvec2 value)
{
    if (SUM_COMPONENTS == 2u)
        return subgroupInclusiveAdd(value);
    return uvec2(subgroupInclusiveAdd(value.x), 0u);
}

// The row's total: the last lane's inclusive sum (one shuffle, not a reduction).
uvec2 lastLane(uvec2 inclusive)
{
    uint last = gl_SubgroupSize - 1u;
    if (SUM_COMPONENTS == 2u)
        return subgroupShuffle(inclusive, last);
    return uvec2(subgroupShuffle(inclusive.x, last), 0u);
}

void main()
{
    uint block = flatWorkgroupIndex();
    if (block >= p.blockCount)
        return; // the whole workgroup
    uint runBase = block * WORKGROUP_SIZE * ITEMS + gl_SubgroupID * gl_SubgroupSize * ITEMS + gl_SubgroupInvocationID;
    // All loads first, so they are in flight together.
    uvec2 prefix[ITEMS];
    for (uint j = 0u; j < ITEMS; ++j) {
        uint i = runBase + j * gl_SubgroupSize;
        prefix[j] = i < p.count ? loadElement(i) : uvec2(0u);
    }
    uint selected = 0u; // SELECT: bit j set when row j's element is selected
    uvec2 runTotal = uvec2(0u);
    for (uint j = 0u; j < ITEMS; ++j) {
        uvec2 value = prefix[j];
        if (SELECT != 0u)
            selected |= value.x << j;
        uvec2 inclusive = subgroupInclusiveSum(value);
        prefix[j] = runTotal + inclusive - value;
        runTotal += lastLane(inclusive);
    }
    // Lane 0 of each subgroup enters its run total, so lane 0 receives the
    // runs before it and every other lane that plus its own run's total.
    bool leader = gl_SubgroupInvocationID == 0u;
    uvec2 tileTotal;
    uvec2 offset = workgroupExclusiveAdd2(leader ? runTotal : uvec2(0u), tileTotal);
    if (!leader)
        offset -= runTotal;
    uint slot = (p.firstBlock + block) * SUM_COMPONENTS;
    offset.x += blockOffsets[slot].x;
    if (SUM_COMPONENTS == 2u)
        offset.y += blockOffsets[slot + 1u].x;
    for (uint j = 0u; j < ITEMS; ++j) {
        uint i = runBase + j * gl_SubgroupSize;
        if (i >= p.count)
            break;
        uvec2 result = prefix[j] + offset;
        if (SELECT != 0u) {
            if ((selected & (1u << j)) != 0u)
                outputWords[result.x] = p.firstIndex + i;
        } else if (COMPONENTS == 2u) {
            outputWords[2u * i] = result.x;
            outputWords[2u * i + 1u] = result.y;
        } else {
            outputWords[i] = result.x;
        }
    }
}
