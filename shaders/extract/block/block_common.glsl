// What every pass of the block extractor shares: the specialization
// constants, the parameters, and how a sample of the field is read.
// Parallel Marching Blocks (Liu et al.), section 4: the volume is cut into
// voxel blocks of BLOCK_X × BLOCK_Y × BLOCK_Z voxels; a block owns the cells
// and the grid edges that start at its voxels.

layout(constant_id = 0) const uint SUBGROUP_SIZE = 32;
layout(constant_id = 1) const uint WORKGROUP_SIZE = 128;
layout(constant_id = 2) const uint BLOCK_X = 8;
layout(constant_id = 3) const uint BLOCK_Y = 4;
layout(constant_id = 4) const uint BLOCK_Z = 4;
// 0: the volume image; 1: the Cayley surface evaluated in the shader (the
// paper's Table 2 benchmark, for grids too large to store).
layout(constant_id = 5) const uint FIELD = 0;
// false: each block makes its own copy of the vertices on its far faces, as
// the paper does; true: one vertex per intersected grid edge.
layout(constant_id = 6) const bool WELD = true;
// The value-range pass: false, each block's range covers its own voxels (the
// raycasters' bricks); true, its cells' samples, i.e. its voxels and the
// one-voxel overlap on its upper faces, so that a block is listed exactly
// when its cells straddle the isovalue (the extractor).
layout(constant_id = 7) const bool CELL_RANGES = false;
// Words per entry of slotVertices: 2, or 3 where the group sizes of large
// blocks need more than 32 bits (block_extractor.cpp computes it as
// groupFieldShift does).
layout(constant_id = 8) const uint SLOT_WORDS = 2;
// The words of an entry: the block's first vertex, then its edge-group sizes
// (block_edge_groups.glsl).
const uint SLOT_FIRST_VERTEX = 0u, SLOT_GROUP_SIZES = 1u;
// 8-bit volumes, cell ranges: a range is its minimum and maximum byte, 2
// bytes per block instead of 4 (blockRangeAt says where).
layout(constant_id = 9) const bool BYTE_RANGES = false;
// count_vertices and generate_rows: blocks per workgroup, and invocations
// per block (one per own x-row of the block, up to the workgroup's size).
layout(constant_id = 10) const uint COUNT_BLOCKS_PER_GROUP = 5;
layout(constant_id = 11) const uint COUNT_ROW_LANES = 25;
// Streamed extraction (engine/extract/stream): the triangle pass writes, per
// vertex, which x- or y-edge of the grid's first or last plane it lies on
// (vertexEdgeCode), so the host welds slabs along those planes.
layout(constant_id = 21) const bool EDGE_CODES = false;

layout(push_constant) uniform Parameters {
    ivec3 dims;
    float iso;
    uvec3 blockCounts;
    float valueScale;    // image texel -> data units
    vec3 origin;
    uint roundValues;    // 1: integer data in a normalized image; round back to the exact integer
    vec3 spacing;
    uint activeCapacity; // entries of the active-block list
    uint firstBlockLayer; // range passes: the z-layer of blocks where the bound volume range starts
    uint rowWords;        // min_max_words: 32-bit words per x-row of the volume
    uint layerOffset;     // range passes: the first block layer this dispatch walks, from firstBlockLayer
    uint layerCount;      // range passes: block layers from firstBlockLayer this dispatch covers
    uvec2 rangeFirstBlock; // range passes: the box of blocks (x, y) whose ranges this dispatch writes
    uvec2 rangeEndBlock;
    int firstPlane;        // streamed slabs: the volume's z of the grid's plane 0 (positions, analytic fields)
    uint imagePlanesBelow; // streamed slabs: planes the image holds below the grid's plane 0 (for normals)
    uint volumePlanes;     // the whole volume's planes (dims.z but for streamed slabs)
} params;

const uint kNoSlot = 0xFFFFFFFFu;

// One descriptor layout for every pass of the method (each uses a subset), so
// the C++ side binds one list. Every buffer is readonly unless the pass's
// shader defines its ..._ACCESS as empty before including this file: the
// render graph reads from the SPIR-V which bindings a pass writes (the mesh:
// MESH_OUTPUT_WRITTEN, MESH_COUNTERS_WRITTEN).
#ifndef RANGES_ACCESS
#define RANGES_ACCESS readonly
#endif
#ifndef ACTIVE_BLOCKS_ACCESS
#define ACTIVE_BLOCKS_ACCESS readonly
#endif
#ifndef LISTED_WORDS_ACCESS
#define LISTED_WORDS_ACCESS readonly
#endif
#ifndef STATE_ACCESS
#define STATE_ACCESS readonly
#endif
#ifndef SLOT_VERTICES_ACCESS
#define SLOT_VERTICES_ACCESS readonly
#endif
#ifndef EDGE_CODES_ACCESS
#define EDGE_CODES_ACCESS readonly
#endif
#ifndef MESH_OUTPUT_WRITTEN
#define MESH_OUTPUT_READ_ONLY
#endif
#ifndef MESH_COUNTERS_WRITTEN
#define MESH_COUNTERS_READ_ONLY
#endif
layout(set = 0, binding = 0) uniform sampler3D volumeTexture;
// Per block: two halves rounded outward, or (BYTE_RANGES) two bytes.
layout(set = 0, binding = 1, std430) RANGES_ACCESS buffer MinMax { uint blockMinMax[]; };
// Per listed block: its block index.
layout(set = 0, binding = 2, std430) ACTIVE_BLOCKS_ACCESS buffer ActiveBlocks { uint activeBlocks[]; };
// Welded: where each block is listed, 8 bytes per 32 blocks instead of a slot
// per block: per word of 32 consecutive block indices, one bit per listed
// block and the list slot of its first listed block (listedSlotOf).
layout(set = 0, binding = 3, std430) LISTED_WORDS_ACCESS buffer ListedWords { uvec2 listedWords[]; };
// The list's length and the indirect dispatch of generate_triangles over it
// (a workgroup per listed block); (welded) how many listed blocks make
// vertices or triangles, for benchmarks (the triangle pass counts them); the
// dispatch of count_vertices (COUNT_BLOCKS_PER_GROUP listed blocks a
// workgroup); that of generate_rows (the same, or empty where
// compact_blocks picks the cell pass); compact_blocks' running count of
// active blocks and of its finished workgroups, which its last workgroup
// sets back to zero (they are zero when the state is created).
layout(set = 0, binding = 4, std430) STATE_ACCESS buffer State {
    uint activeCount; uint dispatchX, dispatchY, dispatchZ;
    uint meshBlockCount;
    uint countDispatchX, countDispatchY, countDispatchZ;
    uint rowDispatchX, rowDispatchY, rowDispatchZ;
    uint activeCounter, compactGroupsDone;
};
// Per listed block (welded meshes), SLOT_WORDS words: its first vertex and
// the sizes of its edge groups packed in bit fields (block_edge_groups.glsl).
layout(set = 0, binding = 5, std430) SLOT_VERTICES_ACCESS buffer SlotVertices { uint slotVertices[]; };
#define CASE_TABLE_BINDING 6
#include "case_table.glsl"
#define MESH_VERTICES_BINDING 7
#define MESH_INDICES_BINDING 8
#define MESH_COUNTERS_BINDING 9
#include "mesh_output.glsl"
// The volume's bytes (a range of z-slabs of it), for min_max_words: 16 bytes
// an element, so that one load brings 16 uint8 or 8 16-bit samples.
layout(set = 0, binding = 10, std430) readonly buffer VolumeWords { uvec4 volumeQuads[]; };
// EDGE_CODES: per vertex, (last plane ? 1 << 31 : 0) | (y * dims.x + x) << 1 | axis for a vertex on an x- or
// y-edge of the grid's first or last plane, else kNoEdgeCode.
layout(set = 0, binding = 11, std430) EDGE_CODES_ACCESS buffer VertexEdgeCodes { uint vertexEdgeCodes[]; };
const uint kNoEdgeCode = 0xFFFFFFFFu;

bool isFiniteValue(float v) { return (floatBitsToUint(v) & 0x7F800000u) != 0x7F800000u; }

// The CPU reference's rule: a sample is inside when finite and >= iso.
bool isInside(float v) { return isFiniteValue(v) && v >= params.iso; }

float cayley(vec3 x) { return 1.0 - 16.0 * x.x * x.y * x.z - 4.0 * dot(x, x); }

// The sample at grid point p, in the data's own units, exactly as the CPU
// reference sees it: unorm/snorm texels times their scale are integers again
// after rounding.
float fieldAt(ivec3 p)
{
    if (FIELD == 1u)
        return cayley(params.origin + vec3(p + ivec3(0, 0, params.firstPlane)) * params.spacing);
    float v = texelFetch(volumeTexture, p + ivec3(0, 0, params.imagePlanesBelow), 0).r * params.valueScale;
    return params.roundValues != 0u ? round(v) : v;
}

// Central differences of the field one voxel either side of p (the whole
// volume's index coordinates) along each axis, for normals: hardware trilinear filtering on
// the image, the function itself for Cayley. The six reads share one
// coordinate and differ by texel offsets (six coordinates of their own:
// the triangle pass 2% slower on the H100).
vec3 centralDifferences(vec3 p)
{
    if (FIELD == 1u) {
        vec3 x = params.origin + p * params.spacing, h = params.spacing;
        return vec3(cayley(x + vec3(h.x, 0.0, 0.0)) - cayley(x - vec3(h.x, 0.0, 0.0)),
                    cayley(x + vec3(0.0, h.y, 0.0)) - cayley(x - vec3(0.0, h.y, 0.0)),
                    cayley(x + vec3(0.0, 0.0, h.z)) - cayley(x - vec3(0.0, 0.0, h.z)));
    }
    // A streamed slab's image starts imagePlanesBelow planes under its grid.
    vec3 t = (p - vec3(0.0, 0.0, float(params.firstPlane - int(params.imagePlanesBelow))) + 0.5) /
             vec3(textureSize(volumeTexture, 0));
    return vec3(textureOffset(volumeTexture, t, ivec3(1, 0, 0)).r - textureOffset(volumeTexture, t, ivec3(-1, 0, 0)).r,
                textureOffset(volumeTexture, t, ivec3(0, 1, 0)).r - textureOffset(volumeTexture, t, ivec3(0, -1, 0)).r,
                textureOffset(volumeTexture, t, ivec3(0, 0, 1)).r - textureOffset(volumeTexture, t, ivec3(0, 0, -1)).r) *
           params.valueScale;
}

uvec3 blockSize() { return uvec3(BLOCK_X, BLOCK_Y, BLOCK_Z); }

uvec3 blockCoordinates(uint blockIndex)
{
    uvec3 counts = params.blockCounts;
    return uvec3(blockIndex % counts.x, (blockIndex / counts.x) % counts.y, blockIndex / (counts.x * counts.y));
}

uint blockIndexOf(uvec3 b) { return b.x + params.blockCounts.x * (b.y + params.blockCounts.y * b.z); }

// Which listed block this workgroup processes, one a workgroup (the dispatch
// is 2D where needed), and how many blocks are listed.
uint listedSlot() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }
uint listedCount() { return min(activeCount, params.activeCapacity); }

// BYTE_RANGES: the word holding the byte range of block b and its x-neighbour
// (pairs along x, so that one workgroup of the range pass writes both), and
// where in the word.
uint byteRangeWord(uvec3 b) { return b.x / 2u + (params.blockCounts.x + 1u) / 2u * (b.y + params.blockCounts.y * b.z); }

vec2 blockRangeAt(uint blockIndex)
{
    if (!BYTE_RANGES)
        return unpackHalf2x16(blockMinMax[blockIndex]);
    uvec3 b = blockCoordinates(blockIndex);
    uint bits = blockMinMax[byteRangeWord(b)] >> (16u * (b.x & 1u));
    return vec2(bits & 0xFFu, (bits >> 8) & 0xFFu);
}

// The list slot of a block, or kNoSlot where it is not listed.
uint listedSlotOf(uint blockIndex)
{
    uvec2 word = listedWords[blockIndex / 32u];
    uint bit = 1u << (blockIndex % 32u);
    return (word.x & bit) != 0u ? word.y + bitCount(word.x & (bit - 1u)) : kNoSlot;
}
