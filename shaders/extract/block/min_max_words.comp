#version 460
// Pass 1 (paper section 4.1) reading the volume's raw bytes instead of the
// image: a texel fetch returns one sample, so fetching is bound by texture
// throughput long before memory bandwidth (1.21 ms for 1 GiB of uint8 on an
// H100, where the bytes take 0.35 ms). A lane loads RANGE_WORDS words of a
// row at once (16 bytes: 16 uint8, 8 16-bit or 4 float32 samples; or two or
// four 16-byte loads issued together), consecutive lanes consecutive chunks,
// so a subgroup's loads are whole cache lines; integer data is reduced as
// integers and converted once per segment and row.
// range_walk.glsl walks the rows and slices and writes the same ranges as
// min_max.comp. Used where every block row and x-row is whole words.
#extension GL_GOOGLE_include_directive : require

// The bindings this pass writes (block_common.glsl).
#define RANGES_ACCESS
#include "block_common.glsl"
#include "range_walk.glsl"

layout(local_size_x_id = 1) in;

// Words a lane reads per row: 16, 8, 4, 2 or 1 (a multiple or divisor of a
// block row's words, and a divisor of an x-row's); the scalar type
// (volume_buffer.glsl's codes), a constant so that the walk is compiled for
// one type.
layout(constant_id = 16) const uint RANGE_WORDS = 4;
layout(constant_id = 17) const uint RANGE_SCALAR = 0;

const uint SCALAR_UINT8 = 0u, SCALAR_UINT16 = 1u, SCALAR_INT16 = 2u, SCALAR_FLOAT32 = 3u;
const uint SAMPLES_PER_WORD = RANGE_SCALAR == SCALAR_UINT8 ? 4u : RANGE_SCALAR == SCALAR_FLOAT32 ? 1u : 2u;
// 16-byte loads per lane and row (one also where the lane reads 1 or 2 words).
const uint LANE_QUADS = RANGE_WORDS > 4u ? RANGE_WORDS / 4u : 1u;
const uint MAX_LANE_QUADS = 4u;

struct LaneWords {
    uvec4 quads[MAX_LANE_QUADS];
};

uint wordOf(LaneWords words, uint w) { return words.quads[w / 4u][w % 4u]; }

int laneChunks() { return int(params.rowWords / RANGE_WORDS); }

// The word index of sample p in the bound z-slabs.
uint wordIndex(ivec3 p)
{
    uint z = uint(p.z) - params.firstBlockLayer * BLOCK_Z;
    return (z * uint(params.dims.y) + uint(p.y)) * params.rowWords + uint(p.x) / SAMPLES_PER_WORD;
}

// Integer sample i of the words (i a constant once the loops are unrolled).
int integerSample(LaneWords words, uint i)
{
    uint word = wordOf(words, i / SAMPLES_PER_WORD);
    uint shift = i % SAMPLES_PER_WORD * (32u / SAMPLES_PER_WORD);
    if (RANGE_SCALAR == SCALAR_UINT8)
        return int((word >> shift) & 0xFFu);
    if (RANGE_SCALAR == SCALAR_UINT16)
        return int((word >> shift) & 0xFFFFu);
    return bitfieldExtract(int(word), int(shift), 16);
}

float sampleOf(LaneWords words, uint i)
{
    if (RANGE_SCALAR == SCALAR_FLOAT32)
        return outsideValue(uintBitsToFloat(wordOf(words, i)));
    return float(integerSample(words, i));
}

// The range of samples [first, end) of the words: integers are reduced as
// integers and converted once.
vec2 samplesRange(LaneWords words, uint first, uint end)
{
    if (RANGE_SCALAR == SCALAR_FLOAT32) {
        vec2 range = EMPTY_RANGE;
        [[unroll]] for (uint i = first; i < end; ++i)
            range = unite(range, vec2(sampleOf(words, i)));
        return range;
    }
    int low = integerSample(words, first), high = low;
    [[unroll]] for (uint i = first + 1u; i < end; ++i) {
        int v = integerSample(words, i);
        low = min(low, v);
        high = max(high, v);
    }
    return vec2(low, high);
}

float sampleAt(ivec3 p)
{
    uint index = wordIndex(p);
    LaneWords words;
    words.quads[0] = uvec4(volumeQuads[index / 4u][index % 4u]);
    return sampleOf(words, 0u);
}

LaneRow laneRow(ivec3 p)
{
    uint index = wordIndex(p);
    LaneWords words;
    if (RANGE_WORDS >= 4u) {
        [[unroll]] for (uint q = 0; q < LANE_QUADS; ++q)
            words.quads[q] = volumeQuads[index / 4u + q];
    } else { // rows are not whole 16 bytes: 2 or 1 word loads
        words.quads[0].x = volumeQuads[index / 4u][index % 4u];
        if (RANGE_WORDS == 2u)
            words.quads[0].y = volumeQuads[index / 4u][index % 4u + 1u];
    }
    LaneRow row = emptyLaneRow();
    [[unroll]] for (uint s = 0; s < SEGMENTS; ++s) {
        uint first = s * SEGMENT_SAMPLES;
        // The next segment's first sample is this block's x-overlap.
        uint end = first + SEGMENT_SAMPLES + (CELL_RANGES && s + 1u < SEGMENTS ? 1u : 0u);
        row.segment[s] = samplesRange(words, first, end);
    }
    row.head = vec2(sampleOf(words, 0u));
    return row;
}

void main() { walkBlockRanges(); }
