#version 460
// Pass 1 (paper section 4.1) reading the volume's raw bytes instead of the
// image: a texel fetch returns one sample, so fetching is bound by texture
// throughput long before memory bandwidth (1.21 ms for 1 GiB of uint8 on an
// H100, where the bytes take 0.35 ms); one 32-bit load here brings 4 uint8
// or 2 16-bit samples. Used where every block row is whole words (x-size and
// block width times the sample size are multiples of 4 bytes); min_max.comp
// otherwise. Same output: each block's range over its own voxels, as two
// halves rounded outward.
#extension GL_GOOGLE_include_directive : require

#include "block_common.glsl"
#include "half_range.glsl"

layout(local_size_x_id = 1) in;

shared vec2 partialRange[WORKGROUP_SIZE];

const uint SCALAR_UINT8 = 0u, SCALAR_UINT16 = 1u, SCALAR_INT16 = 2u;

void include(inout vec2 range, float v)
{
    if (isFiniteValue(v))
        range = vec2(min(range.x, v), max(range.y, v));
    else
        range.x = -1.0 / 0.0; // non-finite samples are outside
}

void main()
{
    uint bytesPerSample = params.scalarType == SCALAR_UINT8 ? 1u : params.scalarType == 3u ? 4u : 2u;
    uint wordsPerBlockRow = BLOCK_X * bytesPerSample / 4u;
    uint runWords = (WORKGROUP_SIZE / wordsPerBlockRow) * wordsPerBlockRow;
    uint tid = gl_LocalInvocationIndex;
    uint word = gl_WorkGroupID.x * runWords + tid;
    uint blockZ = params.firstBlockLayer + gl_WorkGroupID.z;
    ivec3 first = ivec3(0, gl_WorkGroupID.y * BLOCK_Y, blockZ * BLOCK_Z);
    ivec3 last = min(first + ivec3(0, BLOCK_Y, BLOCK_Z), params.dims) - 1;
    int boundFirstSlice = int(params.firstBlockLayer * BLOCK_Z);

    vec2 range = vec2(1.0 / 0.0, -1.0 / 0.0);
    if (tid < runWords && word < params.rowWords) {
        for (int z = first.z; z <= last.z; ++z)
            for (int y = first.y; y <= last.y; ++y) {
                uint bits = volumeWords[(uint(z - boundFirstSlice) * uint(params.dims.y) + uint(y)) * params.rowWords + word];
                if (params.scalarType == SCALAR_UINT8) {
                    vec4 v = vec4(uvec4(bits & 0xFFu, (bits >> 8) & 0xFFu, (bits >> 16) & 0xFFu, bits >> 24));
                    range = vec2(min(range.x, min(min(v.x, v.y), min(v.z, v.w))),
                                 max(range.y, max(max(v.x, v.y), max(v.z, v.w))));
                } else if (params.scalarType == SCALAR_UINT16) {
                    vec2 v = vec2(bits & 0xFFFFu, bits >> 16);
                    range = vec2(min(range.x, min(v.x, v.y)), max(range.y, max(v.x, v.y)));
                } else if (params.scalarType == SCALAR_INT16) {
                    vec2 v = vec2(bitfieldExtract(int(bits), 0, 16), bitfieldExtract(int(bits), 16, 16));
                    range = vec2(min(range.x, min(v.x, v.y)), max(range.y, max(v.x, v.y)));
                } else {
                    include(range, uintBitsToFloat(bits));
                }
            }
    }
    partialRange[tid] = range;
    barrier();

    uint blocksPerGroup = runWords / wordsPerBlockRow;
    uint bx = gl_WorkGroupID.x * blocksPerGroup + tid;
    if (tid < blocksPerGroup && bx < params.blockCounts.x) {
        vec2 r = partialRange[tid * wordsPerBlockRow];
        for (uint i = 1; i < wordsPerBlockRow; ++i) {
            vec2 p = partialRange[tid * wordsPerBlockRow + i];
            r = vec2(min(r.x, p.x), max(r.y, p.y));
        }
        blockMinMax[blockIndexOf(uvec3(bx, gl_WorkGroupID.y, blockZ))] = packRangeOutward(r);
    }
}
