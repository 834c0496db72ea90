// Shared by the device-wide scan passes (scan_reduce, scan_blocks_reduce,
// scan_blocks, scan_downsweep): element loading, 64-bit sums without
// shaderInt64, and the order in which a workgroup walks its tile.
//
// Before including: the constants SUBGROUP_SIZE, WORKGROUP_SIZE, COMPONENTS
// (1: uint elements, 2: uvec2 elements) and SELECT (1: an element counts as 1
// when any component is nonzero, for compaction), subgroup_scan.glsl, and
// (for the vector loads) `inputWords`, `inputVectors` and the constant ITEMS.

// Width of the values being summed: a selection sums one flag per element.
const uint SUM_COMPONENTS = SELECT != 0u ? 1u : COMPONENTS;

// The rank of this invocation in the order workgroupExclusiveAdd2 scans in
// (subgroup, then lane). A tile is walked in rank order, so the offsets the
// helper returns are prefix sums in element order on every driver, whatever
// order gl_LocalInvocationIndex maps to subgroups in. Needs full subgroups:
// WORKGROUP_SIZE is a multiple of SUBGROUP_SIZE (the C++ side checks).
uint scanRank() { return gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID; }

// Workgroups are dispatched in 2D: one dimension holds at most 65535 of them.
uint flatWorkgroupIndex() { return gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x; }

// 64-bit unsigned values as uvec2(low word, high word).
uvec2 add64(uvec2 a, uvec2 b)
{
    uint carry;
    uint low = uaddCarry(a.x, b.x, carry);
    return uvec2(low, a.y + b.y + carry);
}

// (sum of low 16-bit halves, sum of high 16-bit halves) as one 64-bit value.
// Summing halves keeps every 32-bit partial sum exact for up to 65536 terms.
uvec2 joinHalves(uvec2 halves) { return add64(uvec2(halves.x, 0u), uvec2(halves.y << 16, halves.y >> 16)); }

uvec2 splitHalves(uint value) { return uvec2(value & 0xFFFFu, value >> 16); }

// Workgroup-wide exclusive prefix sum of 64-bit values (in scanRank order),
// from four exact 32-bit scans of their 16-bit pieces.
uvec2 workgroupExclusiveAdd64(uvec2 value, out uvec2 total)
{
    uvec2 lowTotal, highTotal;
    uvec2 low = workgroupExclusiveAdd2(splitHalves(value.x), lowTotal);
    uvec2 high = workgroupExclusiveAdd2(splitHalves(value.y), highTotal);
    total = add64(joinHalves(lowTotal), uvec2(0u, joinHalves(highTotal).x));
    return add64(joinHalves(low), uvec2(0u, joinHalves(high).x));
}

#ifdef SCAN_LOADS_VECTORS
// The element passes read the input four words at a time, one 16-byte load
// a lane (`inputVectors`, bound over the same bytes as `inputWords`): a
// quarter of the load instructions, and one subgroup scan per vector instead
// of one per element, as CUB's vectorized loads. A vector that runs past the
// segment's last word is read word by word (its range may not cover it).
// Segments start on 16-byte boundaries (scan_passes.cpp checks).
const uint VECTOR_ELEMENTS = 4u / COMPONENTS;     // elements per uvec4
const uint VECTORS = ITEMS / VECTOR_ELEMENTS;     // vectors per invocation

uvec4 loadVector(uint v, uint countWords)
{
    if (4u * v + 4u <= countWords)
        return inputVectors[v];
    uvec4 words = uvec4(0u);
    for (uint k = 0u; k < 4u; ++k)
        if (4u * v + k < countWords)
            words[k] = inputWords[4u * v + k];
    return words;
}

// Element k of a vector (one or two words), or its selection flag.
uvec2 vectorElement(uvec4 words, uint k)
{
    uvec2 value = COMPONENTS == 2u ? (k == 0u ? words.xy : words.zw) : uvec2(words[k], 0u);
    if (SELECT != 0u)
        value = uvec2(value != uvec2(0u) ? 1u : 0u, 0u);
    return value;
}
#endif

#ifdef SCAN_WRITES_OUTPUTS
// Writes the results for vector v of the input (its words `words`, the
// running prefix of its first element `running`): the prefix of each
// element (SELECT 0: one 16-byte store where the vector is whole), or the
// index of each selected element at its rank (SELECT 1). Needs
// `outputWords`, `outputVectors` and p.firstIndex (the segment's first
// element); shared by scan_downsweep and scan_single_pass.
void writeVectorResults(uint v, uvec4 words, uvec2 running, uint countWords)
{
    uvec4 result = uvec4(0u);
    for (uint k = 0u; k < VECTOR_ELEMENTS; ++k) {
        uvec2 value = vectorElement(words, k);
        if (SELECT != 0u) {
            // Words past the count were read as zero: never selected.
            if (value.x != 0u)
                outputWords[running.x] = p.firstIndex + v * VECTOR_ELEMENTS + k;
        } else if (COMPONENTS == 2u) {
            result[2u * k] = running.x;
            result[2u * k + 1u] = running.y;
        } else {
            result[k] = running.x;
        }
        running += value;
    }
    if (SELECT != 0u)
        return;
    if (4u * v + 4u <= countWords) {
        outputVectors[v] = result;
    } else {
        for (uint k = 0u; k < 4u; ++k)
            if (4u * v + k < countWords)
                outputWords[4u * v + k] = result[k];
    }
}
#endif

#ifdef SCAN_WALKS_BLOCK_SUMS
// The block-sum levels (scan_blocks_reduce, scan_blocks): workgroup w takes
// blocks [w * p.span, (w + 1) * p.span), at most WORKGROUP_SIZE * ITEMS of
// them, and invocation r the ITEMS consecutive ones from r * ITEMS (the
// block sums are a few MiB at most, so coalescing matters little here).
uint firstBlockOfInvocation() { return flatWorkgroupIndex() * p.span + scanRank() * ITEMS; }
bool inWorkgroupSpan(uint blockIndex)
{
    return blockIndex < p.blockCount && blockIndex < (flatWorkgroupIndex() + 1u) * p.span;
}
#endif
