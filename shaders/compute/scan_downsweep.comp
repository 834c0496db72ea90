#version 460
// Reduce-then-scan, pass 3 of 3: each workgroup rescans its tile, adds its
// block offset, and writes either the exclusive prefix of every element
// (SELECT 0; modulo 2^32 per component, the 64-bit total is in the totals
// buffer) or, for compaction (SELECT 1), the index of every selected element
// at its rank. Loads finish before the workgroup scan and stores start after
// it, and each invocation stores only the elements it loaded, so the output
// may be the input (an in-place scan).
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(constant_id = 0) const uint SUBGROUP_SIZE = 32;
layout(constant_id = 1) const uint WORKGROUP_SIZE = 256;
layout(constant_id = 2) const uint ITEMS = 8;
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

void main()
{
    uint block = flatWorkgroupIndex();
    if (block >= p.blockCount)
        return; // the whole workgroup
    uint first = block * WORKGROUP_SIZE * ITEMS + scanRank() * ITEMS;
    uvec2 values[ITEMS];
    uvec2 sum = uvec2(0u);
    for (uint j = 0u; j < ITEMS; ++j) {
        values[j] = first + j < p.count ? loadElement(first + j) : uvec2(0u);
        sum += values[j];
    }
    uvec2 total;
    uvec2 running = workgroupExclusiveAdd2(sum, total);
    uint slot = (p.firstBlock + block) * SUM_COMPONENTS;
    running.x += blockOffsets[slot].x;
    if (SUM_COMPONENTS == 2u)
        running.y += blockOffsets[slot + 1u].x;
    for (uint j = 0u; j < ITEMS; ++j) {
        uint i = first + j;
        if (i >= p.count)
            break;
        if (SELECT != 0u) {
            if (values[j].x != 0u)
                outputWords[running.x] = p.firstIndex + i;
        } else if (COMPONENTS == 2u) {
            outputWords[2u * i] = running.x;
            outputWords[2u * i + 1u] = running.y;
        } else {
            outputWords[i] = running.x;
        }
        running += values[j];
    }
}
