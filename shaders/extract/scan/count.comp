#version 460
// Scan method, pass 1 (the CUDA sample's classifyVoxel, fused with the first
// pass of a reduce-then-scan, compute/scan_passes.h): each workgroup
// classifies a column of grid.columnTiles tiles, one above the other
// (classify_spans.glsl), plane by plane, and writes only each tile's sums of
// vertices, triangles and occupied points, as three 64-bit block sums, and a
// bit per span with occupied points. Walking up the column, a span's two
// upper lines are the next plane's lower ones, and its line one row up is its
// neighbour's lower line, taken from shared memory: about 1.25 line reads a
// span where each span alone needs four. Nothing per point is stored: the
// list pass classifies the marked spans again, which costs less than writing
// and reading 8 bytes a point.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_vote : require

layout(constant_id = 0) const uint SUBGROUP_SIZE = 32;
layout(constant_id = 1) const uint WORKGROUP_SIZE = 256;
layout(constant_id = 2) const uint ITEMS = 4;
layout(constant_id = 3) const uint WELD = 1;
// The volume's scalar type (volume_buffer.glsl) where the pipeline is built
// for one type (scan_extractor.cpp says which); ANY_SCALAR_TYPE: read from
// the push constants.
const uint ANY_SCALAR_TYPE = 4u;
layout(constant_id = 4) const uint SCALAR_TYPE = ANY_SCALAR_TYPE;
layout(local_size_x_id = 1) in;
#define LINE_SCALAR_TYPE (SCALAR_TYPE != ANY_SCALAR_TYPE ? SCALAR_TYPE : grid.scalarType)
// The pipeline of the 16-bit types carries the uint8 line code unused; in its
// by-words form the fMRI count came out 0.3-0.4 us faster (H100).
#define LINE_BYTES_BY_WORDS (SCALAR_TYPE == ANY_SCALAR_TYPE)

const uint TILE_SPANS = WORKGROUP_SIZE * ITEMS;
const uint TILE_WORDS = (TILE_SPANS + 31u) / 32u;

#define CASE_TABLE_BINDING 1
#include "case_table.glsl"
#define VOLUME_BINDING 0
#define VOLUME_VECTORS_BINDING 3
#define VOLUME_PAIRS_BINDING 4
#include "scan_grid.glsl"
#include "classify_spans.glsl"

// Per tile: vertices, triangles, occupied points (uint64 each, low word first).
layout(set = 0, binding = 2, std430) writeonly buffer BlockSums { uvec2 blockSums[]; };
// Per tile, TILE_WORDS words: bit i says span i of the tile has occupied points.
layout(set = 0, binding = 5, std430) writeonly buffer SpanBits { uint spanBits[]; };

// Two of everything, by plane parity: one plane is filled while the one
// below is written out, with one barrier a plane.
shared uint upperLines[2][TILE_SPANS]; // line (y, z + 1) of each span of the tile
shared uint tileBits[2][TILE_WORDS];
shared uint tileSums[2][2]; // the tile's packed counts (spanCounts)

// Tile `tile`'s sums and bits, complete in slot `slot`, out; the slot cleared for reuse.
void writeTile(uint tile, uint slot)
{
    for (uint w = gl_LocalInvocationIndex; w < TILE_WORDS; w += WORKGROUP_SIZE) {
        spanBits[tile * TILE_WORDS + w] = tileBits[slot][w];
        tileBits[slot][w] = 0u;
    }
    if (gl_LocalInvocationIndex == 0u) {
        blockSums[3u * tile + 0u] = uvec2(tileSums[slot][0] & 0xFFFFu, 0u);
        blockSums[3u * tile + 1u] = uvec2(tileSums[slot][1], 0u);
        blockSums[3u * tile + 2u] = uvec2(tileSums[slot][0] >> 16, 0u);
        tileSums[slot][0] = 0u;
        tileSums[slot][1] = 0u;
    }
}

void main()
{
    uint perPlane = tilesPerPlane();
    uint column = flatWorkgroupIndex();
    uint firstPlane = column / perPlane * grid.columnTiles;
    if (firstPlane >= grid.planes)
        return; // the whole workgroup
    uint planes = min(grid.columnTiles, grid.planes - firstPlane);
    uint firstTile = firstPlane * perPlane + column % perPlane;
    uvec2 tile = tileSpans(firstTile);
    for (uint w = gl_LocalInvocationIndex; w < 2u * TILE_WORDS; w += WORKGROUP_SIZE)
        tileBits[w / TILE_WORDS][w % TILE_WORDS] = 0u;
    if (gl_LocalInvocationIndex < 4u)
        tileSums[gl_LocalInvocationIndex >> 1][gl_LocalInvocationIndex & 1u] = 0u;
    // The first barrier of the walk orders these before any use.

    uint planeSamples = grid.nx * grid.ny;
    Span spans[ITEMS];
    uint base[ITEMS], lower[ITEMS], lowerUp[ITEMS]; // lines (y, z) and (y + 1, z) of the plane walked
    for (uint j = 0u; j < ITEMS; ++j) {
        uint inTile = j * WORKGROUP_SIZE + gl_LocalInvocationIndex;
        spans[j].points = 0u;
        if (inTile < tile.y) {
            spans[j] = spanAt(tile.x + inTile);
            base[j] = boundSampleIndex(uvec3(spans[j].x0, spans[j].y, spans[j].z));
            lower[j] = lineInsideBits(base[j], spanSamples(spans[j]));
            lowerUp[j] = spanHasY(spans[j]) ? lineInsideBits(base[j] + grid.nx, spanSamples(spans[j])) : 0u;
        }
    }
    for (uint k = 0u; k < planes; ++k) {
        uint slot = k & 1u;
        uint upper[ITEMS], upperUp[ITEMS];
        for (uint j = 0u; j < ITEMS; ++j) {
            uint inTile = j * WORKGROUP_SIZE + gl_LocalInvocationIndex;
            upper[j] = 0u;
            upperUp[j] = 0u;
            if (spans[j].points != 0u && spanHasZ(spans[j])) {
                upper[j] = lineInsideBits(base[j] + planeSamples, spanSamples(spans[j]));
                upperLines[slot][inTile] = upper[j];
                // The tile's top row reads its line one row up here, with its
                // own, so that the plane waits on one round of loads, not two.
                if (spanHasY(spans[j]) && inTile + spansPerRow() >= tile.y)
                    upperUp[j] = lineInsideBits(base[j] + planeSamples + grid.nx, spanSamples(spans[j]));
            }
        }
        barrier();
        if (k > 0u) // the plane below is complete: every invocation has passed its atomics
            writeTile(firstTile + (k - 1u) * perPlane, slot ^ 1u);
        uvec2 counts = uvec2(0u);
        for (uint j = 0u; j < ITEMS; ++j) {
            uint inTile = j * WORKGROUP_SIZE + gl_LocalInvocationIndex;
            if (spans[j].points == 0u)
                continue;
            if (spanHasY(spans[j]) && spanHasZ(spans[j]) && inTile + spansPerRow() < tile.y)
                upperUp[j] = upperLines[slot][inTile + spansPerRow()];
            setLines(spans[j], uvec4(lower[j], lowerUp[j], upper[j], upperUp[j]));
            uvec2 spanSums = spanCounts(spans[j]);
            if ((spanSums.x >> 16) != 0u) // few spans: most of a volume is empty space
                atomicOr(tileBits[slot][inTile >> 5], 1u << (inTile & 31u));
            counts += spanSums;
            // Up one plane.
            lower[j] = upper[j];
            lowerUp[j] = upperUp[j];
            base[j] += planeSamples;
            spans[j].z += 1u;
            spans[j].row += grid.ny;
        }
        // Most subgroups hold no surface: they skip the reduction.
        if (subgroupAny(counts != uvec2(0u))) {
            counts = subgroupAdd(counts);
            if (subgroupElect()) {
                atomicAdd(tileSums[slot][0], counts.x);
                atomicAdd(tileSums[slot][1], counts.y);
            }
        }
    }
    barrier();
    writeTile(firstTile + (planes - 1u) * perPlane, (planes - 1u) & 1u);
}
