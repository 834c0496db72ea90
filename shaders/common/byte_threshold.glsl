// Comparing uint8 samples with an isovalue four at a time: the scan method's
// count and list passes and the HistoPyramid's base pass share it.

// The smallest uint8 sample that is inside (value >= iso), 256 when none is.
uint uint8ThresholdOf(float iso)
{
    if (iso <= 0.0)
        return 0u;
    return iso > 255.0 || isnan(iso) ? 256u : uint(ceil(iso));
}

// Bits 0..3: which of the four bytes of `word` are >= t (t < 256), all four
// compared at once (SIMD within a register, Hacker's Delight 2.18): the low
// seven bits compare by a subtraction that cannot borrow across bytes, the
// top bit decides where the two top bits differ; the four result bits are
// then gathered by one multiplication.
uint bytesAtLeast(uint word, uint t)
{
    const uint high = 0x80808080u;
    uint spread = t * 0x01010101u;
    uint low7 = (word | high) - (spread & ~high);
    uint ge = ((word & ~spread) | (~(word ^ spread) & low7)) & high;
    return ((ge >> 7) * 0x00204081u) >> 21 & 0xFu;
}
