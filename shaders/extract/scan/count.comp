#version 460
// Scan method, pass 1 (the CUDA sample's classifyVoxel, fused with the first
// pass of a reduce-then-scan, compute/scan_passes.h): each workgroup
// classifies one tile of WORKGROUP_SIZE * ITEMS spans of points and writes
// only the tile's sums of vertices, triangles and occupied points, as three
// 64-bit block sums. Nothing per point is stored: the list pass classifies
// the tile again, which costs less than writing and reading 8 bytes a point.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(constant_id = 0) const uint SUBGROUP_SIZE = 32;
layout(constant_id = 1) const uint WORKGROUP_SIZE = 256;
layout(constant_id = 2) const uint ITEMS = 4;
layout(constant_id = 3) const uint WELD = 1;
layout(local_size_x_id = 1) in;

#define CASE_TABLE_BINDING 1
#include "case_table.glsl"
#define VOLUME_BINDING 0
#define VOLUME_VECTORS_BINDING 3
#define VOLUME_PAIRS_BINDING 4
#include "scan_grid.glsl"
#include "classify_spans.glsl"
#include "subgroup_scan.glsl"

// Per tile: vertices, triangles, occupied points (uint64 each, low word first).
layout(set = 0, binding = 2, std430) writeonly buffer BlockSums { uvec2 blockSums[]; };

void main()
{
    uint block = flatWorkgroupIndex();
    uint tileBase = block * WORKGROUP_SIZE * ITEMS;
    if (tileBase >= slabSpanCount())
        return; // the whole workgroup: no barrier is skipped by part of it
    // Coalesced: in step j the workgroup reads consecutive spans; a sum does
    // not care about order.
    uvec2 counts = uvec2(0u);
    for (uint j = 0u; j < ITEMS; ++j) {
        uint span = tileBase + j * WORKGROUP_SIZE + gl_LocalInvocationIndex;
        if (span < slabSpanCount())
            counts += spanCounts(loadSpan(span));
    }
    uvec2 total;
    workgroupExclusiveAdd2(counts, total);
    if (gl_LocalInvocationIndex == 0u) {
        blockSums[3u * block + 0u] = uvec2(total.x & 0xFFFFu, 0u);
        blockSums[3u * block + 1u] = uvec2(total.y, 0u);
        blockSums[3u * block + 2u] = uvec2(total.x >> 16, 0u);
    }
}
