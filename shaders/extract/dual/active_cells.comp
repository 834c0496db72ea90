#version 460
// Dual Marching Cubes, classification: the cells with geometry (some
// corners inside, some not) of every block the block method's min_max and
// compact_blocks listed (value ranges over the block's cells straddling the
// isovalue), written densely to the active cell list. The costly per-cell
// pass (cells.comp) then runs one invocation per listed cell, so every lane
// of a subgroup has a cell however sparse the surface is; without the list
// the few cells with geometry of a subgroup serialised its vertex searches.
//
// BLOCKS_PER_GROUP blocks a workgroup (dispatched indirectly: the block
// method's compact_blocks wrote the count), one invocation per block row
// of BLOCK_X cells along x, whose four sample rows it loads once.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require

layout(constant_id = 0) const uint WORKGROUP_SIZE = 64;
layout(constant_id = 1) const uint BLOCK_X = 8; // at most 31: a row's cells are bits of one word
layout(constant_id = 2) const uint BLOCK_Y = 4;
layout(constant_id = 3) const uint BLOCK_Z = 4;
layout(local_size_x_id = 0) in;

#define VOLUME_BINDING 0
#define DUAL_COUNTERS_BINDING 3
#include "dual_common.glsl"
#include "point_grid.glsl"

layout(set = 0, binding = 1, std430) readonly buffer ActiveBlocks { uint activeBlocks[]; };
// The block method's state (block_state.h): the list's length first.
layout(set = 0, binding = 2, std430) readonly buffer BlockState { uint listedBlocks; };
layout(set = 0, binding = 4, std430) writeonly buffer ActiveCells { uint activeCellList[]; }; // lower corners' point indices

const uint ROWS = BLOCK_Y * BLOCK_Z;
const uint BLOCKS_PER_GROUP = WORKGROUP_SIZE / ROWS; // the host makes WORKGROUP_SIZE a multiple of ROWS

// Bit i: sample x0 + i of the row (y, z) is inside, for i <= BLOCK_X (the
// grid's last sample repeated past its end). uint8 rows that start on a
// word read whole words.
uint insideBits(uint x0, uint y, uint z)
{
    uint index = x0 + grid.nx * (y + grid.ny * z);
    uint bits = 0u;
    if (grid.scalarType == SCALAR_UINT8 && (index & 3u) == 0u && x0 + BLOCK_X < grid.nx) {
        for (uint w = 0u; w <= BLOCK_X / 4u; ++w) {
            uint word = volumeWords[(index >> 2) + w];
            for (uint i = 0u; i < 4u && 4u * w + i <= BLOCK_X; ++i)
                bits |= isInside(float(bitfieldExtract(word, int(8u * i), 8))) ? 1u << (4u * w + i) : 0u;
        }
        return bits;
    }
    for (uint i = 0u; i <= BLOCK_X; ++i)
        bits |= isInside(sampleAt(uvec3(min(x0 + i, grid.nx - 1u), y, z))) ? 1u << i : 0u;
    return bits;
}

void main()
{
    uint lane = gl_LocalInvocationIndex;
    uint slot = flatWorkgroupIndex() * BLOCKS_PER_GROUP + lane / ROWS;
    uvec3 cells = cellCounts();
    uint mine = 0u; // bit i: cell first + (i, 0, 0) has geometry
    uvec3 first = uvec3(0u);
    if (lane < BLOCKS_PER_GROUP * ROWS && slot < min(listedBlocks, grid.activeBlockCapacity)) {
        uint block = activeBlocks[slot];
        uint blocksX = (grid.nx + BLOCK_X - 1u) / BLOCK_X, blocksY = (grid.ny + BLOCK_Y - 1u) / BLOCK_Y;
        uint row = lane % ROWS;
        first = uvec3((block % blocksX) * BLOCK_X, (block / blocksX) % blocksY * BLOCK_Y + row % BLOCK_Y,
                      block / (blocksX * blocksY) * BLOCK_Z + row / BLOCK_Y);
        if (first.x < cells.x && first.y < cells.y && first.z < cells.z) {
            uint someInside = 0u, allInside = ~0u;
            for (uint r = 0u; r < 4u; ++r) {
                uint bits = insideBits(first.x, first.y + (r & 1u), first.z + (r >> 1));
                someInside |= bits;
                allInside &= bits;
            }
            // Cell i's corners are samples i and i + 1 of the four rows.
            uint inBlock = (1u << min(BLOCK_X, cells.x - first.x)) - 1u;
            mine = (someInside | (someInside >> 1)) & ~(allInside & (allInside >> 1)) & inBlock;
        }
    }
    // One atomic per subgroup for the list's slots.
    uint count = bitCount(mine);
    uint offset = subgroupExclusiveAdd(count);
    uint total = subgroupAdd(count);
    uint base = 0u;
    if (subgroupElect() && total != 0u)
        base = atomicAdd(activeCellCount, total);
    uint index = subgroupBroadcastFirst(base) + offset;
    uint point = first.x + grid.nx * (first.y + grid.ny * first.z);
    for (; mine != 0u; mine &= mine - 1u, ++index)
        if (index < grid.activeCellCapacity)
            activeCellList[index] = point + uint(findLSB(mine));
}
