// Comparing uint8 samples with an isovalue four at a time: the scan method's
// count and list passes and the HistoPyramid's base pass share it.

// The smallest uint8 sample that is inside (value >= iso), 256 when none is.
uint uint8ThresholdOf(float iso)
{
    if (iso <= 0.0)
        return 0u;
    return iso > 255.0 || isnan(iso) ? 256u : uint(ceil(iso));
}

// Bit 7 of each byte of `word` set where that byte is >= t (t < 256), the
// other bits clear (SIMD within a register, Hacker's Delight 2.18): bit 7 of
// (byte | 0x80) - (t & 0x7F) says the low seven bits are >= t's, which cannot
// borrow across bytes; the top bits then decide, by t's own top bit (uniform).
uint bytesAtLeastHigh(uint word, uint t)
{
    const uint high = 0x80808080u;
    uint low7 = (word | high) - (t & 0x7Fu) * 0x01010101u;
    uint either = t < 128u ? 0xFFFFFFFFu : 0u; // t's top bit clear: a set top bit alone is enough
    return ((word & low7) | ((word | low7) & either)) & high;
}

// Multiplying top bits by this moves bit 8b + 7 to bit 28 + b, and bit 8b + 3
// to bit 24 + b: every partial product lands on a bit of its own below bit
// 32, so nothing carries, and the eight bits come out in order at the top of
// the word.
const uint kGatherTopBits = 0x00204081u;

// Bits 0..3: which of the four bytes of `word` are >= t (t < 256), all four
// compared at once (Hacker's Delight 2.18), the four result bits gathered by
// one multiplication. The HistoPyramid's byte path keeps this form as it was
// measured (hp6); the lines of line_inside_bits.glsl take eight bytes at once.
uint bytesAtLeast(uint word, uint t)
{
    const uint high = 0x80808080u;
    uint spread = t * 0x01010101u;
    uint low7 = (word | high) - (spread & ~high);
    uint ge = ((word & ~spread) | (~(word ^ spread) & low7)) & high;
    return ((ge >> 7) * 0x00204081u) >> 21 & 0xFu;
}

// Bits 0..7: which of the eight bytes of `lo`, then `hi` are >= t (t < 256),
// gathered by one multiplication.
uint eightBytesAtLeast(uint lo, uint hi, uint t)
{
    return (((bytesAtLeastHigh(lo, t) >> 4) | bytesAtLeastHigh(hi, t)) * kGatherTopBits) >> 24;
}
