// The inside bits of a line of up to 17 consecutive samples along x, read
// with wide loads: for uint8 volumes one 16-byte load and one word where the
// line starts on 16 bytes (else up to five words), compared with the
// isovalue eight bytes at once; float32 and 16-bit lines four samples a
// load where they start on 16 or 8 bytes, else one sample a load. The scan
// method's count and list passes and the HistoPyramid's base pass share it.
//
// Before including: the `VolumeWords` buffer (volume_buffer.glsl), a push
// block `grid` with scalarType and iso, isInside (point_grid.glsl), and
// VOLUME_VECTORS_BINDING and VOLUME_PAIRS_BINDING: the same bytes again as
// 16-byte and as 8-byte vectors, bound from 16 bytes. LINE_SCALAR_TYPE, if
// defined, is the sample type (a specialization constant: one pipeline per
// type carries only its own code); else grid.scalarType. LINE_BYTES_BY_WORDS,
// if defined (a condition), where true compares uint8 lines a word at a time,
// as before eightBytesAtLeast; undefined, the shader has no such code at all.
#ifndef LINE_SCALAR_TYPE
#define LINE_SCALAR_TYPE grid.scalarType
#endif

layout(set = 0, binding = VOLUME_VECTORS_BINDING, std430) readonly buffer VolumeVectors { uvec4 volumeVectors[]; };
// 16-bit samples four at a time get an 8-byte view of their own: a line's
// four loads then cover exactly its 16 samples, where 16-byte loads would
// need 16 bytes of alignment, which fewer lines have.
layout(set = 0, binding = VOLUME_PAIRS_BINDING, std430) readonly buffer VolumePairs { uvec2 volumePairs[]; };

#include "byte_threshold.glsl"

uint uint8Threshold() { return uint8ThresholdOf(grid.iso); }

// Bits 0..3: which of four samples are inside.
uint insideBits(vec4 four)
{
    return (isInside(four.x) ? 1u : 0u) | (isInside(four.y) ? 2u : 0u) | (isInside(four.z) ? 4u : 0u) |
           (isInside(four.w) ? 8u : 0u);
}

// Inside bits of 16-bit samples four at a time: each sample is moved to the
// top half of a word and shifted back down, arithmetically for int16
// (sign-extended, as volumeSampleAt's bitfieldExtract), logically for uint16.
uint shortInsideBits(uvec2 pair)
{
    uvec4 high = pair.xxyy << uvec4(16u, 0u, 16u, 0u);
    return insideBits(LINE_SCALAR_TYPE == SCALAR_INT16 ? vec4(ivec4(high) >> 16) : vec4(high >> 16u));
}

// Inside bits of `n` (at most 17) consecutive samples from bound sample index `start`.
uint lineInsideBits(uint start, uint n)
{
    uint mask = (1u << n) - 1u;
    if (LINE_SCALAR_TYPE == SCALAR_UINT8) {
        uint t = uint8Threshold();
        if (t > 255u)
            return 0u;
#ifdef LINE_BYTES_BY_WORDS
        if (LINE_BYTES_BY_WORDS) {
            // A word a comparison, the form before eightBytesAtLeast, kept
            // inline as it was: a pipeline of all types' code that serves
            // 16-bit volumes came out faster with it (docs/BENCHMARKS.md).
            if ((start & 15u) == 0u && n >= 16u) {
                uvec4 v = volumeVectors[start >> 4];
                uint bits = bytesAtLeast(v.x, t) | bytesAtLeast(v.y, t) << 4 | bytesAtLeast(v.z, t) << 8 |
                            bytesAtLeast(v.w, t) << 12;
                if (n == 17u)
                    bits |= (bytesAtLeast(volumeWords[(start >> 2) + 4u], t) & 1u) << 16;
                return bits;
            }
            uint first = start & 3u;
            uint words = (first + n + 3u) / 4u;
            uint bits = 0u;
            for (uint w = 0u; w < 5u; ++w)
                if (w < words)
                    bits |= bytesAtLeast(volumeWords[(start >> 2) + w], t) << (4u * w);
            return (bits >> first) & mask;
        }
#endif
        if ((start & 15u) == 0u && n >= 16u) {
            // The bound range starts on 16 bytes.
            uvec4 v = volumeVectors[start >> 4];
            uint bits = eightBytesAtLeast(v.x, v.y, t) | eightBytesAtLeast(v.z, v.w, t) << 8;
            if (n == 17u && (volumeWords[(start >> 2) + 4u] & 0xFFu) >= t)
                bits |= 1u << 16;
            return bits;
        }
        uint first = start & 3u;
        uint words = (first + n + 3u) / 4u; // at most 5
        uint word[5];
        for (uint w = 0u; w < 5u; ++w)
            word[w] = w < words ? volumeWords[(start >> 2) + w] : 0u; // bytes past the line are masked off
        uint bits = eightBytesAtLeast(word[0], word[1], t) | eightBytesAtLeast(word[2], word[3], t) << 8 |
                    bytesAtLeast(word[4], t) << 16;
        return (bits >> first) & mask;
    }
    bool aligned = (start & 3u) == 0u;
    uint bits = 0u;
    for (uint c = 0u; c < 4u; ++c) {
        uint at = 4u * c;
        if (aligned && at + 4u <= n) {
            // Four samples a load; the bound range starts on 16 bytes.
            if (LINE_SCALAR_TYPE == SCALAR_FLOAT32)
                bits |= insideBits(uintBitsToFloat(volumeVectors[(start >> 2) + c])) << at;
            else
                bits |= shortInsideBits(volumePairs[(start >> 2) + c]) << at;
        } else {
            for (uint k = 0u; k < 4u; ++k)
                if (at + k < n && isInside(volumeSampleAt(start + at + k, LINE_SCALAR_TYPE)))
                    bits |= 1u << (at + k);
        }
    }
    if (n == 17u && isInside(volumeSampleAt(start + 16u, LINE_SCALAR_TYPE)))
        bits |= 1u << 16;
    return bits;
}
