#version 460
// Pass 1 (paper section 4.1): the value range of each voxel block, over the
// block's own voxels, so the volume is read exactly once. A workgroup reads
// consecutive x-runs of several blocks (whole rows, for coalesced reads even
// on 8-bit data) and reduces each block's share through shared memory.
// Ranges are stored as two halves rounded outward, 4 bytes per block: a
// conservative test can only keep a block it could have skipped.
#extension GL_GOOGLE_include_directive : require

#include "block_common.glsl"
#include "half_range.glsl"

layout(local_size_x_id = 1) in;


shared vec2 partialRange[WORKGROUP_SIZE];

void main()
{
    uint runLength = (WORKGROUP_SIZE / BLOCK_X) * BLOCK_X; // voxels along x per workgroup
    uint tid = gl_LocalInvocationIndex;
    int x = int(gl_WorkGroupID.x * runLength + tid);
    ivec3 first = ivec3(0, gl_WorkGroupID.y * BLOCK_Y, gl_WorkGroupID.z * BLOCK_Z);
    ivec3 last = min(first + ivec3(0, BLOCK_Y, BLOCK_Z), params.dims) - 1;

    float low = 1.0 / 0.0;
    float high = -1.0 / 0.0;
    if (tid < runLength && x < params.dims.x) {
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
    if (tid < blocksPerGroup && bx < params.blockCounts.x) {
        vec2 range = partialRange[tid * BLOCK_X];
        for (uint i = 1; i < BLOCK_X; ++i) {
            vec2 r = partialRange[tid * BLOCK_X + i];
            range = vec2(min(range.x, r.x), max(range.y, r.y));
        }
        uint blockIndex = blockIndexOf(uvec3(bx, gl_WorkGroupID.y, gl_WorkGroupID.z));
        blockMinMax[blockIndex] = packRangeOutward(range);
    }
}
