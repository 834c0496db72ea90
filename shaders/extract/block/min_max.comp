#version 460
// Pass 1 (paper section 4.1): the value range of each voxel block, reading
// the image. A workgroup reads consecutive x-runs of several blocks (whole
// rows, for coalesced reads even on 8-bit data), RANGE_BLOCK_ROWS blocks deep
// in y, and reduces each block's share through shared memory.
//
// With CELL_RANGES the range also covers the samples one voxel past the
// block on its upper faces: one more column in x (the first of the next
// block, read by one spare invocation past the run), one more row in y and
// one more slice in z. Each invocation walks its column's rows once and
// hands a row on a block boundary to both blocks, so within a workgroup the
// y-overlap costs one row per RANGE_BLOCK_ROWS blocks, not one per block: a
// texel fetch brings one sample, and fetches, not bytes, bound this pass.
//
// Ranges are stored as two halves rounded outward, 4 bytes per block (a
// conservative test can only keep a block it could have skipped), or with
// BYTE_RANGES as two bytes.
#extension GL_GOOGLE_include_directive : require

#include "block_common.glsl"
#include "half_range.glsl"

layout(local_size_x_id = 1) in;

shared vec2 partialRange[RANGE_BLOCK_ROWS * WORKGROUP_SIZE]; // per block row and column
shared uint byteRange[WORKGROUP_SIZE]; // BYTE_RANGES: per block of the run, for the even block to pair

vec2 unite(vec2 a, vec2 b) { return vec2(min(a.x, b.x), max(a.y, b.y)); }

void main()
{
    uint runLength = blocksPerRun(BLOCK_X) * BLOCK_X;
    uint reach = CELL_RANGES ? 1u : 0u;
    uint tid = gl_LocalInvocationIndex;
    int x = int(gl_WorkGroupID.x * runLength + tid);
    uint firstBlockY = gl_WorkGroupID.y * RANGE_BLOCK_ROWS;
    int firstY = int(firstBlockY * BLOCK_Y);
    int firstZ = int(gl_WorkGroupID.z * BLOCK_Z);
    int lastY = min(firstY + int(RANGE_BLOCK_ROWS * BLOCK_Y + reach), params.dims.y) - 1;
    int lastZ = min(firstZ + int(BLOCK_Z + reach), params.dims.z) - 1;

    const vec2 empty = vec2(1.0 / 0.0, -1.0 / 0.0);
    for (uint j = 0u; j < RANGE_BLOCK_ROWS; ++j)
        partialRange[j * WORKGROUP_SIZE + tid] = empty;
    if (tid < runLength + reach && x < params.dims.x) {
        vec2 current = empty; // block row j's range so far
        uint j = 0u;
        for (int y = firstY; y <= lastY; ++y) {
            vec2 row = empty;
            for (int z = firstZ; z <= lastZ; ++z) {
                float v = fieldAt(ivec3(x, y, z));
                row = isFiniteValue(v) ? unite(row, vec2(v)) : vec2(-1.0 / 0.0, row.y); // non-finite: outside
            }
            uint rowBlock = uint(y - firstY) / BLOCK_Y;
            if (rowBlock != j) { // the first row of the next block row: with CELL_RANGES also the last of this one
                partialRange[j * WORKGROUP_SIZE + tid] = CELL_RANGES ? unite(current, row) : current;
                current = empty;
                j = rowBlock;
            }
            if (j < RANGE_BLOCK_ROWS)
                current = unite(current, row);
        }
        if (j < RANGE_BLOCK_ROWS)
            partialRange[j * WORKGROUP_SIZE + tid] = current;
    }
    barrier();

    // One invocation per block: blocksPerGroup along x times RANGE_BLOCK_ROWS
    // along y fit the workgroup (block_value_ranges.cpp keeps
    // RANGE_BLOCK_ROWS <= BLOCK_X).
    uint blocksPerGroup = runLength / BLOCK_X;
    uint j = tid / blocksPerGroup, column = tid % blocksPerGroup;
    uvec3 b = uvec3(gl_WorkGroupID.x * blocksPerGroup + column, firstBlockY + j, gl_WorkGroupID.z);
    bool isBlock = j < RANGE_BLOCK_ROWS && all(lessThan(b, params.blockCounts));
    vec2 range = empty;
    if (isBlock)
        for (uint i = 0; i < BLOCK_X + reach; ++i) // columns past the volume hold the empty range
            range = unite(range, partialRange[j * WORKGROUP_SIZE + column * BLOCK_X + i]);
    if (!BYTE_RANGES) {
        if (isBlock)
            blockMinMax[blockIndexOf(b)] = packRangeOutward(range);
        return;
    }
    // The even block of each pair along x writes both (blocksPerGroup is even).
    byteRange[tid] = packByteRange(range);
    barrier();
    if (isBlock && (b.x & 1u) == 0u)
        blockMinMax[byteRangeWord(b)] = byteRange[tid] | (byteRange[tid + 1u] << 16);
}
