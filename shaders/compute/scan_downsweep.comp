#version 460
// Reduce-then-scan, the last pass: each workgroup rescans its tile, adds its
// block offset, and writes either the exclusive prefix of every element
// (SELECT 0; modulo 2^32 per component, the 64-bit total is in the totals
// buffer) or, for compaction (SELECT 1), the index of every selected element
// at its rank.
//
// Coalesced, with no shared-memory transpose: subgroup s owns the run of
// gl_SubgroupSize * VECTORS consecutive vectors of four words at
// s * gl_SubgroupSize * VECTORS in the tile and walks it in VECTORS rows of
// gl_SubgroupSize, one vector per lane, so each row is one contiguous 16-byte
// -a-lane load and store (scan_common.glsl). A lane adds up its vector's
// elements itself; a row is scanned with one subgroup scan of those sums,
// rows are chained by the running run total (the last lane's inclusive sum),
// and one workgroup scan of the run totals places the runs.
//
// In place: every invocation stores exactly the elements it loaded, after
// loading all of them, so the output may be the input.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require

layout(constant_id = 0) const uint SUBGROUP_SIZE = 32;
layout(constant_id = 1) const uint WORKGROUP_SIZE = 256;
layout(constant_id = 2) const uint ITEMS = 16; // a multiple of 4: whole vectors
layout(constant_id = 3) const uint COMPONENTS = 1;
layout(constant_id = 4) const uint SELECT = 0;
layout(local_size_x_id = 1) in;

layout(set = 0, binding = 0, std430) readonly buffer Input { uint inputWords[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Output { uint outputWords[]; };
layout(set = 0, binding = 2, std430) readonly buffer BlockOffsets { uvec2 blockOffsets[]; };
// Input's and Output's bytes again, four words an element (scan_common.glsl).
layout(set = 0, binding = 3, std430) readonly buffer InputVectors { uvec4 inputVectors[]; };
layout(set = 0, binding = 4, std430) writeonly buffer OutputVectors { uvec4 outputVectors[]; };
layout(push_constant) uniform Push {
    uint count;      // elements in this segment
    uint firstBlock; // block index of the segment's first tile
    uint blockCount; // tiles in this segment
    uint firstIndex; // index of the segment's first element (compaction output)
} p;

#include "subgroup_scan.glsl"
#define SCAN_LOADS_VECTORS
#define SCAN_WRITES_OUTPUTS
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
    uint countWords = p.count * COMPONENTS;
    uint runBase = block * WORKGROUP_SIZE * VECTORS + gl_SubgroupID * gl_SubgroupSize * VECTORS + gl_SubgroupInvocationID;
    // All loads first, so they are in flight together.
    uvec4 vectors[VECTORS];
    for (uint j = 0u; j < VECTORS; ++j) {
        uint v = runBase + j * gl_SubgroupSize;
        vectors[j] = 4u * v < countWords ? loadVector(v, countWords) : uvec4(0u);
    }
    uvec2 prefix[VECTORS]; // of each vector's first element, in the run
    uvec2 runTotal = uvec2(0u);
    for (uint j = 0u; j < VECTORS; ++j) {
        uvec2 sum = uvec2(0u);
        for (uint k = 0u; k < VECTOR_ELEMENTS; ++k)
            sum += vectorElement(vectors[j], k);
        uvec2 inclusive = subgroupInclusiveSum(sum);
        prefix[j] = runTotal + inclusive - sum;
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
    for (uint j = 0u; j < VECTORS; ++j) {
        uint v = runBase + j * gl_SubgroupSize;
        if (4u * v >= countWords)
            break;
        writeVectorResults(v, vectors[j], prefix[j] + offset, countWords);
    }
}
