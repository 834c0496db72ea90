#version 460
// Pass 1 (paper section 4.1): the value range of each voxel block. A
// workgroup reads consecutive x-runs of several blocks (whole rows, for
// coalesced reads even on 8-bit data) and reduces each block's share through
// shared memory. With CELL_RANGES the range also covers the samples one voxel
// past the block on its upper faces: the workgroup reads one more row in y
// and z (shared with the next block, so mostly from cache) and one more
// column in x (the first column of the next block, read by one spare
// invocation past the run). Ranges are stored as two halves rounded outward,
// 4 bytes per block: a conservative test can only keep a block it could have
// skipped.
#extension GL_GOOGLE_include_directive : require

#include "block_common.glsl"
#include "half_range.glsl"

layout(local_size_x_id = 1) in;

shared vec2 partialRange[WORKGROUP_SIZE];
shared uint byteRange[WORKGROUP_SIZE]; // BYTE_RANGES: per block of the run, for the even block to pair

// Writes block (bx, by, bz)'s range; with BYTE_RANGES the even block of each
// pair writes both (blocksPerGroup is even). Every invocation calls it.
void storeRange(uint tid, bool isBlock, uvec3 b, vec2 range)
{
    if (!BYTE_RANGES) {
        if (isBlock)
            blockMinMax[blockIndexOf(b)] = packRangeOutward(range);
        return;
    }
    byteRange[tid] = isBlock ? packByteRange(range) : packByteRange(vec2(1.0 / 0.0, -1.0 / 0.0));
    barrier();
    if (isBlock && (b.x & 1u) == 0u)
        blockMinMax[byteRangeWord(b)] = byteRange[tid] | (byteRange[tid + 1u] << 16);
}

void main()
{
    // Voxels along x per workgroup; with CELL_RANGES one invocation is kept
    // spare for the column after the run.
    uint runLength = blocksPerRun(BLOCK_X) * BLOCK_X;
    uint reach = CELL_RANGES ? 1u : 0u;
    uint tid = gl_LocalInvocationIndex;
    int x = int(gl_WorkGroupID.x * runLength + tid);
    ivec3 first = ivec3(0, gl_WorkGroupID.y * BLOCK_Y, gl_WorkGroupID.z * BLOCK_Z);
    ivec3 last = min(first + ivec3(0, BLOCK_Y + reach, BLOCK_Z + reach), params.dims) - 1;

    float low = 1.0 / 0.0;
    float high = -1.0 / 0.0;
    if (tid < runLength + reach && x < params.dims.x) {
        for (int z = first.z; z <= last.z; ++z)
            for (int y = first.y; y <= last.y; ++y) {
                float v = fieldAt(ivec3(x, y, z));
                if (isFiniteValue(v)) {
                    low = min(low, v);
                    high = max(high, v);
                } else {
                    low = -1.0 / 0.0; // non-finite samples are outside
                }
            }
    }
    partialRange[tid] = vec2(low, high);
    barrier();

    uint blocksPerGroup = runLength / BLOCK_X;
    uint bx = gl_WorkGroupID.x * blocksPerGroup + tid;
    bool isBlock = tid < blocksPerGroup && bx < params.blockCounts.x;
    vec2 range = vec2(1.0 / 0.0, -1.0 / 0.0);
    if (isBlock) {
        for (uint i = 0; i < BLOCK_X + reach; ++i) { // columns past the volume hold the empty range
            vec2 r = partialRange[tid * BLOCK_X + i];
            range = vec2(min(range.x, r.x), max(range.y, r.y));
        }
    }
    storeRange(tid, isBlock, uvec3(bx, gl_WorkGroupID.y, gl_WorkGroupID.z), range);
}
