#version 460
// Scan method, pass 3 (the CUDA sample's compaction and the downsweep of a
// reduce-then-scan in one, compute/scan_passes.h): each workgroup classifies
// its tile of spans again, scans the packed counts in point order, adds the
// tile's offsets from the block-sum scan, and writes one list entry per
// occupied point (scan_grid.glsl) with its vertex and triangle offsets, and
// where each row's entries start. Its output scales with the surface, not
// the volume.
//
// Point order, coalesced, as scan_downsweep.comp: subgroup s owns the run of
// gl_SubgroupSize * ITEMS consecutive spans at s * gl_SubgroupSize * ITEMS
// in the tile and walks it in ITEMS rows of one span per lane; rows are
// scanned with one subgroup scan each and chained by the running total, and
// one workgroup scan of the run totals places the runs.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require

layout(constant_id = 0) const uint SUBGROUP_SIZE = 32;
layout(constant_id = 1) const uint WORKGROUP_SIZE = 256;
layout(constant_id = 2) const uint ITEMS = 4;
layout(constant_id = 3) const uint WELD = 1;
layout(local_size_x_id = 1) in;

#define CASE_TABLE_BINDING 1
#include "case_table.glsl"
#define VOLUME_BINDING 0
#define VOLUME_VECTORS_BINDING 6
#define VOLUME_PAIRS_BINDING 7
#include "scan_grid.glsl"
#include "classify_spans.glsl"
#include "subgroup_scan.glsl"

// Exclusive 64-bit offsets of each tile: vertices, triangles, occupied points.
layout(set = 0, binding = 2, std430) readonly buffer BlockOffsets { uvec2 blockOffsets[]; };
layout(set = 0, binding = 3, std430) writeonly buffer List { uvec4 list[]; };
layout(set = 0, binding = 4, std430) writeonly buffer RowStarts { uint rowStarts[]; };
layout(set = 0, binding = 5, std430) readonly buffer SlabTotals { uvec2 slabTotals[3]; }; // uint64 vertices, triangles, occupied

// A tile without occupied points (most of them: empty space) writes only the
// starts of the rows that begin in it, all at the tile's list offset, and
// reads no sample: the count pass already classified it.
void writeEmptyTile(uint tileBase, uint spanCount, uint entry)
{
    uint perRow = spansPerRow();
    for (uint j = 0u; j < ITEMS; ++j) {
        uint span = tileBase + j * WORKGROUP_SIZE + gl_LocalInvocationIndex;
        if (span >= spanCount)
            break;
        uint row = span / perRow;
        if (span == row * perRow)
            rowStarts[row] = entry;
        if (span + 1u == spanCount)
            rowStarts[row + 1u] = entry;
    }
}

void writeSpan(Span s, uint vertexOffset, uint triangleOffset, uint entry)
{
    if (s.x0 == 0u)
        rowStarts[s.row] = entry;
    uint firstPoint = slabIndex(uvec3(s.x0, s.y, s.z));
    for (uint m = s.mixed; m != 0u; m &= m - 1u) { // in point order
        uint k = uint(findLSB(m));
        SpanPoint point = spanPoint(s, k);
        if (!isOccupied(point))
            continue;
        if (entry < grid.listCapacity)
            list[entry] = uvec4(firstPoint + k, vertexOffset, triangleOffset, point.caseIndex | point.ownedCrossed << 8);
        ++entry;
        vertexOffset += point.vertices;
        triangleOffset += point.triangles;
    }
    if (s.row + 1u == slabRowCount() && s.x0 + s.points == grid.nx)
        rowStarts[s.row + 1u] = entry;
}

void main()
{
    uint block = flatWorkgroupIndex();
    uint tileBase = block * WORKGROUP_SIZE * ITEMS;
    uint spanCount = slabSpanCount();
    if (tileBase >= spanCount)
        return; // the whole workgroup
    uint tileCount = (spanCount + WORKGROUP_SIZE * ITEMS - 1u) / (WORKGROUP_SIZE * ITEMS);
    uint tileEntry = blockOffsets[3u * block + 2u].x;
    uint nextEntry = block + 1u < tileCount ? blockOffsets[3u * (block + 1u) + 2u].x : slabTotals[2].x;
    if (nextEntry == tileEntry) {
        writeEmptyTile(tileBase, spanCount, tileEntry);
        return; // the whole workgroup: the test is the same for all of it
    }
    uint runBase = tileBase + gl_SubgroupID * gl_SubgroupSize * ITEMS + gl_SubgroupInvocationID;
    Span spans[ITEMS];
    uvec2 prefix[ITEMS];
    for (uint j = 0u; j < ITEMS; ++j) {
        uint span = runBase + j * gl_SubgroupSize;
        spans[j].points = 0u;
        prefix[j] = uvec2(0u);
        if (span < spanCount) {
            spans[j] = loadSpan(span);
            prefix[j] = spanCounts(spans[j]);
        }
    }
    uvec2 runTotal = uvec2(0u);
    for (uint j = 0u; j < ITEMS; ++j) {
        uvec2 value = prefix[j];
        uvec2 inclusive = subgroupInclusiveAdd(value);
        prefix[j] = runTotal + inclusive - value;
        runTotal += subgroupShuffle(inclusive, gl_SubgroupSize - 1u);
    }
    // Lane 0 of each subgroup enters its run total, so lane 0 receives the
    // runs before it and every other lane that plus its own run's total.
    bool leader = gl_SubgroupInvocationID == 0u;
    uvec2 tileTotal;
    uvec2 offset = workgroupExclusiveAdd2(leader ? runTotal : uvec2(0u), tileTotal);
    if (!leader)
        offset -= runTotal;
    uvec3 tileOffsets = uvec3(blockOffsets[3u * block].x, blockOffsets[3u * block + 1u].x, blockOffsets[3u * block + 2u].x);
    for (uint j = 0u; j < ITEMS; ++j) {
        if (spans[j].points == 0u)
            break;
        uvec2 packed = prefix[j] + offset;
        writeSpan(spans[j], tileOffsets.x + (packed.x & 0xFFFFu), tileOffsets.y + packed.y,
                  tileOffsets.z + (packed.x >> 16));
    }
}
