// A value range packed into 32 bits as two halves rounded outward (the
// minimum down, the maximum up): a conservative test on it can only keep a
// block it could have skipped, never skip one it needed.

// The half-precision bits of v rounded toward -inf (down) or +inf (up).
uint halfBitsRounded(float v, bool up)
{
    uint bits = packHalf2x16(vec2(v, 0.0)) & 0xFFFFu;
    float back = unpackHalf2x16(bits).x;
    bool negative = (bits & 0x8000u) != 0u;
    if (up && back < v)
        bits = negative ? (bits == 0x8000u ? 0x0001u : bits - 1u) : bits + 1u;
    if (!up && back > v)
        bits = negative ? bits + 1u : (bits == 0u ? 0x8001u : bits - 1u);
    return bits;
}

uint packRangeOutward(vec2 range) { return halfBitsRounded(range.x, false) | (halfBitsRounded(range.y, true) << 16); }

// BYTE_RANGES: an 8-bit range as two bytes (the empty range as 255, 0).
uint packByteRange(vec2 range) { return uint(clamp(range.x, 0.0, 255.0)) | (uint(clamp(range.y, 0.0, 255.0)) << 8); }

// Blocks per workgroup of the range passes, `units` (voxels or words) per
// block row: with CELL_RANGES one invocation is kept for the unit after the
// run, and with BYTE_RANGES the count is even so that pairs share a
// workgroup. BlockValueRanges::record computes the same.
uint blocksPerRun(uint units)
{
    uint blocks = (WORKGROUP_SIZE - (CELL_RANGES ? 1u : 0u)) / units;
    return BYTE_RANGES ? blocks & ~1u : blocks;
}
