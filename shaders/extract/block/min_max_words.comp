#version 460
// Pass 1 (paper section 4.1) reading the volume's raw bytes instead of the
// image: a texel fetch returns one sample, so fetching is bound by texture
// throughput long before memory bandwidth (1.21 ms for 1 GiB of uint8 on an
// H100, where the bytes take 0.35 ms); one 32-bit load here brings 4 uint8
// or 2 16-bit samples. Used where every block row is whole words (x-size and
// block width times the sample size are multiples of 4 bytes); min_max.comp
// otherwise. Same output: each block's range over its own voxels, or with
// CELL_RANGES over its cells' samples (one more row in y and z, and the
// first sample of the next block's first word in x), as two halves rounded
// outward.
#extension GL_GOOGLE_include_directive : require

#include "block_common.glsl"
#include "half_range.glsl"

layout(local_size_x_id = 1) in;

// Per word of the run: the range of all its samples, and of its first
// sample only (the x-overlap of the block before it).
shared vec2 partialRange[WORKGROUP_SIZE];
shared vec2 firstSampleRange[WORKGROUP_SIZE];
shared uint byteRange[WORKGROUP_SIZE]; // BYTE_RANGES: per block of the run, for the even block to pair

const uint SCALAR_UINT8 = 0u, SCALAR_UINT16 = 1u, SCALAR_INT16 = 2u;

vec2 include(vec2 range, float v)
{
    if (isFiniteValue(v))
        return vec2(min(range.x, v), max(range.y, v));
    return vec2(-1.0 / 0.0, range.y); // non-finite samples are outside
}

vec2 unite(vec2 a, vec2 b) { return vec2(min(a.x, b.x), max(a.y, b.y)); }

void main()
{
    uint bytesPerSample = params.scalarType == SCALAR_UINT8 ? 1u : params.scalarType == 3u ? 4u : 2u;
    uint wordsPerBlockRow = BLOCK_X * bytesPerSample / 4u;
    uint reach = CELL_RANGES ? 1u : 0u;
    uint runWords = blocksPerRun(wordsPerBlockRow) * wordsPerBlockRow;
    uint tid = gl_LocalInvocationIndex;
    uint word = gl_WorkGroupID.x * runWords + tid;
    uint blockZ = params.firstBlockLayer + gl_WorkGroupID.z;
    ivec3 first = ivec3(0, gl_WorkGroupID.y * BLOCK_Y, blockZ * BLOCK_Z);
    // The overlap layer in z lies in the next slab when this is a slab's last
    // block layer: the slabs overlap by one sample layer (block_value_ranges.cpp).
    ivec3 last = min(first + ivec3(0, BLOCK_Y + reach, BLOCK_Z + reach), params.dims) - 1;
    int boundFirstSlice = int(params.firstBlockLayer * BLOCK_Z);

    vec2 range = vec2(1.0 / 0.0, -1.0 / 0.0);
    vec2 head = range;
    if (tid < runWords + reach && word < params.rowWords) {
        for (int z = first.z; z <= last.z; ++z)
            for (int y = first.y; y <= last.y; ++y) {
                uint bits = volumeWords[(uint(z - boundFirstSlice) * uint(params.dims.y) + uint(y)) * params.rowWords + word];
                if (params.scalarType == SCALAR_UINT8) {
                    vec4 v = vec4(uvec4(bits & 0xFFu, (bits >> 8) & 0xFFu, (bits >> 16) & 0xFFu, bits >> 24));
                    range = vec2(min(range.x, min(min(v.x, v.y), min(v.z, v.w))),
                                 max(range.y, max(max(v.x, v.y), max(v.z, v.w))));
                    head = unite(head, v.xx);
                } else if (params.scalarType == SCALAR_UINT16) {
                    vec2 v = vec2(bits & 0xFFFFu, bits >> 16);
                    range = vec2(min(range.x, min(v.x, v.y)), max(range.y, max(v.x, v.y)));
                    head = unite(head, v.xx);
                } else if (params.scalarType == SCALAR_INT16) {
                    vec2 v = vec2(bitfieldExtract(int(bits), 0, 16), bitfieldExtract(int(bits), 16, 16));
                    range = vec2(min(range.x, min(v.x, v.y)), max(range.y, max(v.x, v.y)));
                    head = unite(head, v.xx);
                } else {
                    range = include(range, uintBitsToFloat(bits));
                    head = range;
                }
            }
    }
    partialRange[tid] = range;
    firstSampleRange[tid] = head;
    barrier();

    uint blocksPerGroup = runWords / wordsPerBlockRow;
    uint bx = gl_WorkGroupID.x * blocksPerGroup + tid;
    bool isBlock = tid < blocksPerGroup && bx < params.blockCounts.x;
    vec2 r = vec2(1.0 / 0.0, -1.0 / 0.0);
    if (isBlock) {
        for (uint i = 0; i < wordsPerBlockRow; ++i)
            r = unite(r, partialRange[tid * wordsPerBlockRow + i]);
        if (CELL_RANGES) // a word past the row holds the empty range
            r = unite(r, firstSampleRange[(tid + 1u) * wordsPerBlockRow]);
    }
    uvec3 b = uvec3(bx, gl_WorkGroupID.y, blockZ);
    if (!BYTE_RANGES) {
        if (isBlock)
            blockMinMax[blockIndexOf(b)] = packRangeOutward(r);
        return;
    }
    // The even block of each pair writes both (blocksPerGroup is even).
    byteRange[tid] = packByteRange(r);
    barrier();
    if (isBlock && (bx & 1u) == 0u)
        blockMinMax[byteRangeWord(b)] = byteRange[tid] | (byteRange[tid + 1u] << 16);
}
