#version 460
// Scan method, pass 3 (the CUDA sample's compaction and the downsweep of a
// reduce-then-scan in one, compute/scan_passes.h): each workgroup takes the
// spans of its tile that the count pass marked as holding occupied points
// (most tiles have none, and a tile that has some has few), one an
// invocation in point order, classifies them again, scans their packed counts,
// adds the tile's offsets from the block-sum scan, and writes one list entry
// per occupied point (scan_grid.glsl) with its vertex and triangle offsets,
// and where each row's entries start. Its work scales with the surface, not
// the volume.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(constant_id = 0) const uint SUBGROUP_SIZE = 32;
layout(constant_id = 1) const uint WORKGROUP_SIZE = 256;
layout(constant_id = 2) const uint ITEMS = 4;
layout(constant_id = 3) const uint WELD = 1;
layout(local_size_x_id = 1) in;

const uint TILE_SPANS = WORKGROUP_SIZE * ITEMS;
const uint TILE_WORDS = (TILE_SPANS + 31u) / 32u;

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
// Per tile, TILE_WORDS words: bit i says span i of the tile has occupied points (count.comp).
layout(set = 0, binding = 8, std430) readonly buffer SpanBits { uint spanBits[]; };

shared uint tileBits[TILE_WORDS];
// By the rank of an occupied span in its tile: the tile's list entries before it
// (entry `occupied`: all of the tile's).
shared uint entriesBefore[TILE_SPANS + 1u];

// Where in a word its n-th set bit lies (n < bitCount(v)).
uint nthSetBit(uint v, uint n)
{
    uint at = 0u;
    for (uint width = 16u; width != 0u; width >>= 1u) {
        uint low = bitCount(v & ((1u << width) - 1u));
        bool above = n >= low;
        n -= above ? low : 0u;
        v >>= above ? width : 0u;
        at += above ? width : 0u;
    }
    return at;
}

// The span of the tile (0-based in it) that is its n-th marked one.
uint nthMarkedSpan(uint n)
{
    uint w = 0u;
    for (; w + 1u < TILE_WORDS; ++w) {
        uint c = bitCount(tileBits[w]);
        if (n < c)
            break;
        n -= c;
    }
    return 32u * w + nthSetBit(tileBits[w], n);
}

bool isMarked(uint inTile) { return (tileBits[inTile >> 5] & (1u << (inTile & 31u))) != 0u; }

uint markedBefore(uint inTile)
{
    uint n = bitCount(tileBits[inTile >> 5] & ((1u << (inTile & 31u)) - 1u));
    for (uint w = 0u; w < (inTile >> 5); ++w)
        n += bitCount(tileBits[w]);
    return n;
}

// The starts of the rows that begin in the tile on a span not marked
// (writeSpan writes the others), and the end of the slab's last row if the
// tile ends it on a span not marked: the tile's first entry plus those of its
// marked spans before that span (entriesBefore, set where any is marked).
void writeRowStarts(uvec2 tile, uint tileEntry, bool anyMarked)
{
    uint perRow = spansPerRow();
    uint tileEnd = tile.x + tile.y;
    for (uint row = (tile.x + perRow - 1u) / perRow + gl_LocalInvocationIndex; row * perRow < tileEnd;
         row += WORKGROUP_SIZE) {
        uint inTile = row * perRow - tile.x;
        if (!anyMarked)
            rowStarts[row] = tileEntry;
        else if (!isMarked(inTile))
            rowStarts[row] = tileEntry + entriesBefore[markedBefore(inTile)];
    }
    if (gl_LocalInvocationIndex == 0u && tileEnd == slabSpanCount() && (!anyMarked || !isMarked(tile.y - 1u)))
        rowStarts[slabRowCount()] = tileEntry + (anyMarked ? entriesBefore[markedBefore(tile.y - 1u)] : 0u);
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
    uint tileCount = slabTileCount();
    if (block >= tileCount)
        return; // the whole workgroup
    uvec2 tile = tileSpans(block);
    // Read with the offsets, not after them: a tile with marked spans then waits on one load, not two.
    uint firstBits = gl_LocalInvocationIndex < TILE_WORDS ? spanBits[block * TILE_WORDS + gl_LocalInvocationIndex] : 0u;
    uint tileEntry = blockOffsets[3u * block + 2u].x;
    uint nextEntry = block + 1u < tileCount ? blockOffsets[3u * (block + 1u) + 2u].x : slabTotals[2].x;
    if (nextEntry == tileEntry) {
        // Most tiles (empty space): no sample read, the count pass already classified them.
        writeRowStarts(tile, tileEntry, false);
        return; // the whole workgroup: the test is the same for all of it
    }
    if (gl_LocalInvocationIndex < TILE_WORDS)
        tileBits[gl_LocalInvocationIndex] = firstBits;
    for (uint w = gl_LocalInvocationIndex + WORKGROUP_SIZE; w < TILE_WORDS; w += WORKGROUP_SIZE)
        tileBits[w] = spanBits[block * TILE_WORDS + w];
    barrier();
    uint marked = 0u;
    for (uint w = 0u; w < TILE_WORDS; ++w)
        marked += bitCount(tileBits[w]);
    // In the order workgroupExclusiveAdd2 scans in, so that the offsets follow point order.
    uint rank = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
    uvec3 tileOffsets = uvec3(blockOffsets[3u * block].x, blockOffsets[3u * block + 1u].x, tileEntry);
    uvec2 carry = uvec2(0u);
    for (uint first = 0u; first < marked; first += WORKGROUP_SIZE) { // once while they fit the workgroup
        uint n = first + rank;
        Span s;
        uvec2 counts = uvec2(0u);
        if (n < marked) {
            s = loadSpan(tile.x + nthMarkedSpan(n));
            counts = spanCounts(s);
        }
        uvec2 total;
        uvec2 packed = carry + workgroupExclusiveAdd2(counts, total);
        if (n < marked) {
            entriesBefore[n] = packed.x >> 16;
            writeSpan(s, tileOffsets.x + (packed.x & 0xFFFFu), tileOffsets.y + packed.y,
                      tileOffsets.z + (packed.x >> 16));
        }
        carry += total;
    }
    if (gl_LocalInvocationIndex == 0u)
        entriesBefore[marked] = carry.x >> 16;
    barrier();
    writeRowStarts(tile, tileEntry, true);
}
