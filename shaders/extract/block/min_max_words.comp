#version 460
// Pass 1 (paper section 4.1) reading the volume's raw bytes instead of the
// image: a texel fetch returns one sample, so fetching is bound by texture
// throughput long before memory bandwidth (1.21 ms for 1 GiB of uint8 on an
// H100, where the bytes take 0.35 ms); one 32-bit load here brings 4 uint8
// or 2 16-bit samples. Used where every block row is whole words (x-size and
// block width times the sample size are multiples of 4 bytes); min_max.comp
// otherwise. Same output: each block's range over its own voxels, or with
// CELL_RANGES over its cells' samples (one more row in y and slice in z, and
// the first sample of the next block's first word in x), as two halves
// rounded outward, or with BYTE_RANGES two bytes.
//
// As in min_max.comp, a workgroup covers RANGE_BLOCK_ROWS blocks along y and
// each invocation walks its word column's rows once, handing a row on a
// block boundary to both blocks, so the y-overlap is loaded once per
// workgroup rather than once per block.
#extension GL_GOOGLE_include_directive : require

#include "block_common.glsl"
#include "half_range.glsl"

layout(local_size_x_id = 1) in;

// Per block row and word of the run: the range of all its samples, and of
// its first sample only (the x-overlap of the block before it).
shared vec2 partialRange[RANGE_BLOCK_ROWS * WORKGROUP_SIZE];
shared vec2 firstSampleRange[RANGE_BLOCK_ROWS * WORKGROUP_SIZE];
shared uint byteRange[WORKGROUP_SIZE]; // BYTE_RANGES: per block, for the even block to pair

const uint SCALAR_UINT8 = 0u, SCALAR_UINT16 = 1u, SCALAR_INT16 = 2u;
const vec2 kEmpty = vec2(1.0 / 0.0, -1.0 / 0.0);

vec2 unite(vec2 a, vec2 b) { return vec2(min(a.x, b.x), max(a.y, b.y)); }

// The range of a word's samples, and of its first sample.
void wordRanges(uint bits, inout vec2 range, inout vec2 head)
{
    if (params.scalarType == SCALAR_UINT8) {
        vec4 v = vec4(uvec4(bits & 0xFFu, (bits >> 8) & 0xFFu, (bits >> 16) & 0xFFu, bits >> 24));
        range = unite(range, vec2(min(min(v.x, v.y), min(v.z, v.w)), max(max(v.x, v.y), max(v.z, v.w))));
        head = unite(head, v.xx);
    } else if (params.scalarType == SCALAR_UINT16) {
        vec2 v = vec2(bits & 0xFFFFu, bits >> 16);
        range = unite(range, vec2(min(v.x, v.y), max(v.x, v.y)));
        head = unite(head, v.xx);
    } else if (params.scalarType == SCALAR_INT16) {
        vec2 v = vec2(bitfieldExtract(int(bits), 0, 16), bitfieldExtract(int(bits), 16, 16));
        range = unite(range, vec2(min(v.x, v.y), max(v.x, v.y)));
        head = unite(head, v.xx);
    } else {
        float v = uintBitsToFloat(bits);
        range = isFiniteValue(v) ? unite(range, vec2(v)) : vec2(-1.0 / 0.0, range.y); // non-finite: outside
        head = range;
    }
}

void main()
{
    uint bytesPerSample = params.scalarType == SCALAR_UINT8 ? 1u : params.scalarType == 3u ? 4u : 2u;
    uint wordsPerBlockRow = BLOCK_X * bytesPerSample / 4u;
    uint reach = CELL_RANGES ? 1u : 0u;
    uint runWords = blocksPerRun(wordsPerBlockRow) * wordsPerBlockRow;
    uint tid = gl_LocalInvocationIndex;
    uint word = gl_WorkGroupID.x * runWords + tid;
    uint blockZ = params.firstBlockLayer + gl_WorkGroupID.z;
    uint firstBlockY = gl_WorkGroupID.y * RANGE_BLOCK_ROWS;
    int firstY = int(firstBlockY * BLOCK_Y);
    int firstZ = int(blockZ * BLOCK_Z);
    // The overlap slice in z lies past a slab's last block layer: the slabs
    // overlap by one sample slice (block_value_ranges.cpp).
    int lastY = min(firstY + int(RANGE_BLOCK_ROWS * BLOCK_Y + reach), params.dims.y) - 1;
    int lastZ = min(firstZ + int(BLOCK_Z + reach), params.dims.z) - 1;
    int boundFirstSlice = int(params.firstBlockLayer * BLOCK_Z);

    for (uint j = 0u; j < RANGE_BLOCK_ROWS; ++j) {
        partialRange[j * WORKGROUP_SIZE + tid] = kEmpty;
        firstSampleRange[j * WORKGROUP_SIZE + tid] = kEmpty;
    }
    if (tid < runWords + reach && word < params.rowWords) {
        vec2 current = kEmpty, currentHead = kEmpty; // block row j's so far
        uint j = 0u;
        for (int y = firstY; y <= lastY; ++y) {
            vec2 row = kEmpty, rowHead = kEmpty;
            for (int z = firstZ; z <= lastZ; ++z)
                wordRanges(volumeWords[(uint(z - boundFirstSlice) * uint(params.dims.y) + uint(y)) * params.rowWords + word],
                           row, rowHead);
            uint rowBlock = uint(y - firstY) / BLOCK_Y;
            if (rowBlock != j) { // the next block row's first: with CELL_RANGES also this one's last
                partialRange[j * WORKGROUP_SIZE + tid] = CELL_RANGES ? unite(current, row) : current;
                firstSampleRange[j * WORKGROUP_SIZE + tid] = CELL_RANGES ? unite(currentHead, rowHead) : currentHead;
                current = kEmpty;
                currentHead = kEmpty;
                j = rowBlock;
            }
            if (j < RANGE_BLOCK_ROWS) {
                current = unite(current, row);
                currentHead = unite(currentHead, rowHead);
            }
        }
        if (j < RANGE_BLOCK_ROWS) {
            partialRange[j * WORKGROUP_SIZE + tid] = current;
            firstSampleRange[j * WORKGROUP_SIZE + tid] = currentHead;
        }
    }
    barrier();

    // One invocation per block, in rounds where blocks outnumber invocations;
    // a pair along x is in one round (even round starts, even blocksPerGroup).
    uint blocksPerGroup = runWords / wordsPerBlockRow;
    for (uint first = 0u; first < blocksPerGroup * RANGE_BLOCK_ROWS; first += WORKGROUP_SIZE) {
        uint k = first + tid;
        uint j = k / blocksPerGroup, column = k % blocksPerGroup;
        uvec3 b = uvec3(gl_WorkGroupID.x * blocksPerGroup + column, firstBlockY + j, blockZ);
        bool isBlock = j < RANGE_BLOCK_ROWS && all(lessThan(b, params.blockCounts));
        vec2 r = kEmpty;
        if (isBlock) {
            uint base = j * WORKGROUP_SIZE + column * wordsPerBlockRow;
            for (uint i = 0; i < wordsPerBlockRow; ++i)
                r = unite(r, partialRange[base + i]);
            if (CELL_RANGES) // a word past the row holds the empty range
                r = unite(r, firstSampleRange[base + wordsPerBlockRow]);
        }
        if (!BYTE_RANGES) {
            if (isBlock)
                blockMinMax[blockIndexOf(b)] = packRangeOutward(r);
            continue;
        }
        byteRange[tid] = packByteRange(r);
        barrier();
        if (isBlock && (b.x & 1u) == 0u)
            blockMinMax[byteRangeWord(b)] = byteRange[tid] | (byteRange[tid + 1u] << 16);
        barrier(); // byteRange is rewritten by the next round
    }
}
