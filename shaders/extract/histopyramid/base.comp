#version 460
// The HistoPyramid's lowest three levels (histopyramid_common.glsl). A run is
// 16 × 2 points along x and y: eight x-adjacent level-1 nodes of one node row,
// four level-2 nodes wide. A workgroup holds 32 runs side by side twice, the
// two level-1 rows (y parity) of the same level-2 nodes, and walks a column of
// grid.level level-2 layers up z, each two level-1 layers of two planes. Up
// the walk a run keeps its top plane's three lines for the next layer, so it
// reads six lines of 17 samples (line_inside_bits.glsl) a layer where a run
// alone reads nine. A run whose samples all lie on one side (most of a
// volume) has no counts and nothing else to do; otherwise the 64 points are
// classified by bit arithmetic on the lines' inside bits, and only its nodes
// with counts compute and store their level-0 bytes (no traversal reads the
// bytes of a node it does not enter). The level-1 entries go through shared
// memory: once a level-2 layer is done, the workgroup holds all eight entries
// of each of its level-2 nodes and stores them as one 16-byte vector a node,
// lane after lane (4-byte stores a lane, 64 bytes apart, each cost a whole
// memory sector), and with them each node's sums: level 2, so that the reduce
// passes start at level 3. Triangle counts too come from bit arithmetic, 32
// cells at once (pointRows); only the rare cells it cannot count load the
// case table.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#define VOLUME_BINDING 0
#define LEVELS_BINDING 1
#define PYRAMID_BINDING 2
#define PYRAMID_ACCESS
#define CASE_TABLE_BINDING 3
#define VOLUME_VECTORS_BINDING 4
#define VOLUME_PAIRS_BINDING 5

// The volume's sample type: a pipeline per type carries only its own line reads.
layout(constant_id = 0) const uint SCALAR_TYPE = 0u;
// 1 where every line is 16 aligned bytes (uint8, x size a multiple of 16): the byte path below.
layout(constant_id = 1) const uint BYTE_LINES = 0u;
#define LINE_SCALAR_TYPE SCALAR_TYPE
#include "histopyramid_common.glsl"
#include "case_table.glsl"
#include "line_inside_bits.glsl"

// The pyramid again as 16-byte vectors: a level-2 node's eight level-1 entries, stored at once.
layout(set = 0, binding = 6, std430) writeonly buffer PyramidVectorsOut { uvec4 pyramidVectorsOut[]; };

layout(local_size_x = 64) in;

const uint RUN_PARENTS = 4u; // level-2 nodes a run spans along x (16 points)
const uint HALF = 32u;       // runs a workgroup holds per level-1 row; the workgroup is two of them

// Per level-2 layer parity (one barrier a layer): each level-2 node's eight
// level-1 entries, word y + 2z of the octants (x, y, z).
shared uvec4 staged[2][HALF * RUN_PARENTS];

// Two rows of a run (16 points along x at y and y + 1, one z) as six masks,
// row y in bits 0-15 and row y + 1 in bits 16-31 (bit k: point x0 + k): the
// crossed owned edges along x, y and z, then the three bits of the cell's
// triangle count; the order of a level-0 byte's bits (pointByteOf).
struct PointRows {
    uint m[6];
};

// Lines y and y + 1 of a plane as one word, their first 16 samples (k) or the 16 after one sample (k + 1).
uint packRows(uint line0, uint line1) { return (line0 & 0xFFFFu) | (line1 << 16); }
uint packRowsNext(uint line0, uint line1) { return ((line0 >> 1) & 0xFFFFu) | ((line1 >> 1) << 16); }

// A full adder on 32 lanes of bits at once (sum, carry).
uvec2 fullAdd(uint a, uint b, uint c) { return uvec2(a ^ b ^ c, (a & b) | (c & (a ^ b))); }

// The rows (y + i, z) for i = 0, 1 from the lines (y + i) of planes z (lo)
// and z + 1 (up). A cell's triangle count comes from bit arithmetic on all
// 32 cells at once, not a case-table load a cell: with the table's rule
// (inside corners apart on an ambiguous face, case_table.h) a cell whose
// inside and outside corners each form one region has one loop, so its count
// is E - 2 for its E crossed edges. That holds for every case with E <= 5,
// and for E = 6 and 7 where the number of inside corners n has bit 1 clear
// (6 with n = 4, 7 with n = 5); the others (E >= 8, n = 2 or 6 with E = 6, n
// = 3 with E = 7: faces with both diagonals equal, or corners opposite
// through the cell) are rare on a surface and load the table (every case is
// checked against the table by tests/cpu/test_case_table.cpp).
PointRows pointRows(uint lo[3], uint up[3], uint yMask, uint zMask, uint edgeMask)
{
    // Corner (x + k, y + i, z + j) of cell k: a (i = 0, j = 0), b (1, 0), c (0, 1), d (1, 1); a1 .. d1 at x + k + 1.
    uint a = packRows(lo[0], lo[1]), a1 = packRowsNext(lo[0], lo[1]);
    uint b = packRows(lo[1], lo[2]), b1 = packRowsNext(lo[1], lo[2]);
    uint c = packRows(up[0], up[1]), c1 = packRowsNext(up[0], up[1]);
    uint d = packRows(up[1], up[2]), d1 = packRowsNext(up[1], up[2]);
    uint xa = a ^ a1, xb = b ^ b1, xc = c ^ c1, xd = d ^ d1;
    uint ya = a ^ b, ya1 = a1 ^ b1, yc = c ^ d, yc1 = c1 ^ d1;
    uint za = a ^ c, za1 = a1 ^ c1, zb = b ^ d, zb1 = b1 ^ d1;
    // E, the number of crossed edges, as four bit planes e0 .. e3 (carry-save adders).
    uvec2 s0 = fullAdd(xa, xb, xc), s1 = fullAdd(xd, ya, ya1), s2 = fullAdd(yc, yc1, za), s3 = fullAdd(za1, zb, zb1);
    uvec2 s4 = fullAdd(s0.x, s1.x, s2.x);
    uint e0 = s4.x ^ s3.x, c5 = s4.x & s3.x;
    uvec2 t4 = fullAdd(s0.y, s1.y, s2.y), t5 = fullAdd(s3.y, s4.y, c5);
    uint e1 = t4.x ^ t5.x;
    uvec2 e23 = fullAdd(t4.y, t5.y, t4.x & t5.x);
    // Bit 1 of n: the carries out of the inside corners' ones bit.
    uvec2 n0 = fullAdd(a, a1, b), n1 = fullAdd(b1, c, c1), n2 = fullAdd(n0.x, n1.x, xd);
    uint nBit1 = n0.y ^ n1.y ^ (d & d1) ^ n2.y;

    uint cellMask = edgeMask & yMask & zMask;
    uint tableCells = (e23.y | (e23.x & e1 & nBit1)) & cellMask;
    uint loopCells = (e0 | e1 | e23.x) & cellMask & ~tableCells; // E in 1 .. 7, one loop: E - 2 triangles
    PointRows rows;
    rows.m[0] = xa & edgeMask;
    rows.m[1] = ya & yMask;
    rows.m[2] = za & zMask;
    rows.m[3] = e0 & loopCells;
    rows.m[4] = ~e1 & loopCells;
    rows.m[5] = ~(e23.x ^ e1) & loopCells;
    for (uint m = tableCells; m != 0u; m &= m - 1u) {
        uint k = uint(findLSB(m));
        uint caseIndex = ((a >> k) & 1u) | ((a1 >> k) & 1u) << 1 | ((b >> k) & 1u) << 2 | ((b1 >> k) & 1u) << 3 |
                         ((c >> k) & 1u) << 4 | ((c1 >> k) & 1u) << 5 | ((d >> k) & 1u) << 6 | ((d1 >> k) & 1u) << 7;
        uint t = caseTriangleCount(caseIndex);
        rows.m[3] |= (t & 1u) << k;
        rows.m[4] |= ((t >> 1) & 1u) << k;
        rows.m[5] |= (t >> 2) << k;
    }
    return rows;
}

#ifdef NODE_BYTES_PER_ROW
// Variant for the device call only: the level-0 bytes built bit by bit from each row, as before.
uint pairBits(uint w, uint s)
{
    uint e = (w >> s) & 0x00030003u;
    return (e & 1u) | ((e >> 15) & 2u) | ((e & 2u) << 7) | ((e >> 8) & 0x200u);
}

uint rowHalf(PointRows rows, uint i, uint s)
{
    uint sh = 16u * i;
    uint x = ((rows.m[0] >> sh) & 0xFFFFu) | ((rows.m[1] >> sh) << 16);
    uint y = ((rows.m[2] >> sh) & 0xFFFFu) | ((rows.m[3] >> sh) << 16);
    uint z = ((rows.m[4] >> sh) & 0xFFFFu) | ((rows.m[5] >> sh) << 16);
    return pairBits(x, s) | pairBits(y, s) << 2 | pairBits(z, s) << 4;
}

uint nodeWord(PointRows rows, uint s) { return rowHalf(rows, 0u, s) | rowHalf(rows, 1u, s) << 16; }
#else
// The level-0 bytes of points s and s + 1 of both rows, (y, s), (y, s + 1),
// (y + 1, s), (y + 1, s + 1): each mask's four bits moved to their bytes by
// one multiply (bit b to b and b + 7, no two products on one bit), three
// masks a multiply, where a shift and mask a bit took four times the work.
uint nodeWord(PointRows rows, uint s)
{
    uint x[6];
    [[unroll]] for (uint j = 0u; j < 6u; ++j)
        x[j] = (rows.m[j] >> s) & 0x00030003u;
    uint even = x[0] | x[2] << 2 | x[4] << 4, odd = x[1] << 1 | x[3] << 3 | x[5] << 5;
    return ((even * 0x81u) & 0x15151515u) | ((odd * 0x81u) & 0x2A2A2A2Au);
}
#endif

// The four level-1 words (two x-adjacent nodes' entries each, the x-even
// node's low: vertices | triangles << 8) of the run's level-1 layer whose
// points start at p, from its lines (y + i, z + j) in l0 (j = 0), l1, l2; its
// nodes' level-0 bytes stored where they have counts.
uvec4 nodeLayer(uint l0[3], uint l1[3], uint l2[3], uvec3 p, uint samples)
{
    uvec3 dims = gridDims();
    // Lines past the grid are 0 and take no part.
    bvec3 yIn = lessThan(p.yyy + uvec3(0u, 1u, 2u), dims.yyy), zIn = lessThan(p.zzz + uvec3(0u, 1u, 2u), dims.zzz);
    uint sampleMask = (1u << samples) - 1u;
    uint someIn = 0u, allIn = sampleMask;
    [[unroll]] for (uint i = 0u; i < 3u; ++i) {
        someIn |= l0[i] | l1[i] | l2[i];
        allIn &= (yIn[i] && zIn[0] ? l0[i] : sampleMask) & (yIn[i] && zIn[1] ? l1[i] : sampleMask) &
                 (yIn[i] && zIn[2] ? l2[i] : sampleMask);
    }
    // All on one side, or no sample at all: no crossed edge, no cell with triangles.
    if ((someIn & sampleMask) == 0u || allIn == sampleMask)
        return uvec4(0u);

    uint points = min(16u, dims.x - p.x);
    uint pointMask = (1u << points) - 1u;
    uint edgeMask = (1u << min(16u, dims.x - 1u - p.x)) - 1u; // points with a +x neighbour
    pointMask |= pointMask << 16;
    edgeMask |= edgeMask << 16;
    // Rows y + i with a row y + i + 1 in the grid; planes z + j with a plane z + j + 1.
    uint yMask = pointMask & ((yIn[1] ? 0xFFFFu : 0u) | (yIn[2] ? 0xFFFF0000u : 0u));
    PointRows rows0 = pointRows(l0, l1, yMask, zIn[1] ? pointMask : 0u, edgeMask);
    PointRows rows1 = pointRows(l1, l2, yMask, zIn[2] ? pointMask : 0u, edgeMask);
    uint pointBits = 0u; // bit k: point x + k has a crossed edge or a triangle in some row
    [[unroll]] for (uint j = 0u; j < 6u; ++j)
        pointBits |= rows0.m[j] | rows1.m[j];
    pointBits = (pointBits | (pointBits >> 16)) & 0xFFFFu;

    uvec3 q = p / 2u; // the first node
    uint level0 = levels[0].w + 2u * linearIndex(q, levels[1].xyz);
    uvec4 pairs = uvec4(0u);
    // Only the nodes with counts: few in a run that the surface crosses.
    for (uint m = (pointBits | (pointBits >> 1)) & 0x5555u; m != 0u; m &= m - 1u) {
        uint s = uint(findLSB(m)), n = s >> 1;
        uint w0 = nodeWord(rows0, s);
        uint w1 = nodeWord(rows1, s);
        pyramid[level0 + 2u * n] = w0;
        pyramid[level0 + 2u * n + 1u] = w1;
        uint vertices = bitCount(w0 & 0x07070707u) + bitCount(w1 & 0x07070707u);
        uint triangleBytes = ((w0 >> 3) & 0x07070707u) + ((w1 >> 3) & 0x07070707u);
        uint triangles = (triangleBytes * 0x01010101u) >> 24;
        uint entry = (vertices | triangles << 8) << (16u * (n & 1u));
        uint word = n >> 1;
        pairs |= uvec4(word == 0u ? entry : 0u, word == 1u ? entry : 0u, word == 2u ? entry : 0u,
                       word == 3u ? entry : 0u);
    }
    return pairs;
}

bool lineInGrid(uvec3 p, uint samples) { return samples != 0u && p.y < grid.ny && p.z < grid.nz; }

uint lineAt(uvec3 p, uint samples)
{
    return lineInGrid(p, samples) ? lineInsideBits(linearIndex(p, gridDims()), samples) : 0u;
}

// The wide path: float32 and 16-bit samples where the x size is a multiple
// of 4, so that every line starts on 4 samples. A line is four vector loads
// and a sample with no branch between them (lineInsideBits reads each
// behind a branch); loads past the bound range are clamped to its last
// vector, and a line outside the grid reads the first and counts nothing.
bool wideLines() { return SCALAR_TYPE != SCALAR_UINT8 && (grid.nx & 3u) == 0u; }

uint wideLineBits(uvec3 p, uint samples)
{
    bool inGrid = lineInGrid(p, samples);
    uint start = inGrid ? linearIndex(p, gridDims()) : 0u;
    uint bits = 0u;
    if (SCALAR_TYPE == SCALAR_FLOAT32) {
        uint last = uint(volumeVectors.length()) - 1u;
        [[unroll]] for (uint c = 0u; c < 4u; ++c)
            bits |= insideBits(uintBitsToFloat(volumeVectors[min((start >> 2) + c, last)])) << (4u * c);
    } else {
        uint last = uint(volumePairs.length()) - 1u;
        [[unroll]] for (uint c = 0u; c < 4u; ++c)
            bits |= shortInsideBits(volumePairs[min((start >> 2) + c, last)]) << (4u * c);
    }
    bool lastInside = isInside(volumeSampleAt(samples == 17u ? start + 16u : 0u, SCALAR_TYPE));
    bits |= samples == 17u && lastInside ? 1u << 16 : 0u;
    return inGrid ? bits & ((1u << samples) - 1u) : 0u;
}

// The byte path (BYTE_LINES): a line is one 16-byte load and, for a 17th
// sample, a word. A step's six lines are loaded with no branch between the
// loads, all issued before any is used, and a step before they are needed:
// a lane waits for memory at most once a step, where a line read behind a
// branch waited once a line (docs/BENCHMARKS.md). A line outside the grid
// loads word 0 and counts nothing.
struct ByteLine {
    uvec4 vector;
    uint last;
};

ByteLine loadByteLine(uvec3 p, uint samples)
{
    uint start = lineInGrid(p, samples) ? linearIndex(p, gridDims()) : 0u;
    return ByteLine(volumeVectors[start >> 4], volumeWords[samples == 17u ? (start >> 2) + 4u : 0u]);
}

uint byteLineBits(ByteLine line, uvec3 p, uint samples)
{
    uint t = uint8Threshold(); // 256: no sample is inside
    uvec4 v = line.vector;
    uint bits = bytesAtLeast(v.x, t) | bytesAtLeast(v.y, t) << 4 | bytesAtLeast(v.z, t) << 8 | bytesAtLeast(v.w, t) << 12;
    bits |= samples == 17u && (line.last & 0xFFu) >= t ? 1u << 16 : 0u;
    return lineInGrid(p, samples) && t <= 255u ? bits : 0u;
}

// The loads of the step whose plane pair starts at p: lines (y + i, z + 1) in 0-2, (y + i, z + 2) in 3-5.
void loadStep(uvec3 p, uint samples, out ByteLine lines[6])
{
    [[unroll]] for (uint j = 0u; j < 6u; ++j)
        lines[j] = loadByteLine(p + uvec3(0u, j % 3u, 1u + j / 3u), samples);
}

void main()
{
    uvec3 dims = gridDims(), d2 = levels[2].xyz;
    uint runsPerRow = (d2.x + RUN_PARENTS - 1u) / RUN_PARENTS;
    uint layerRuns = runsPerRow * d2.y; // a level-2 layer's runs of one y parity
    uint groupsPerLayer = (layerRuns + HALF - 1u) / HALF;
    uint group = flatWorkgroupIndex();
    uint firstLayer = group / groupsPerLayer * grid.level;
    if (firstLayer >= d2.z)
        return; // the whole workgroup
    uint layers = min(grid.level, d2.z - firstLayer);
    uint firstRun = (group % groupsPerLayer) * HALF;
    uint slot = gl_LocalInvocationIndex % HALF, yParity = gl_LocalInvocationIndex / HALF;
    uint run = firstRun + slot;
    uint runRow = run / runsPerRow; // its level-2 row
    uvec3 p0 = uvec3(16u * (run - runRow * runsPerRow), 4u * runRow + 2u * yParity, 4u * firstLayer);
    // Runs past the last carry no samples but still meet every barrier.
    uint samples = run < layerRuns && p0.x < dims.x ? min(17u, dims.x - p0.x) : 0u;

    uint below[3]; // the lines (y + i) of the plane the walk stands on
    ByteLine loaded[6]; // the byte path: the lines of the step to come, loading
    if (BYTE_LINES != 0u) {
        ByteLine first[3];
        [[unroll]] for (uint i = 0u; i < 3u; ++i)
            first[i] = loadByteLine(p0 + uvec3(0u, i, 0u), samples);
        loadStep(p0, samples, loaded);
        [[unroll]] for (uint i = 0u; i < 3u; ++i)
            below[i] = byteLineBits(first[i], p0 + uvec3(0u, i, 0u), samples);
    } else if (wideLines()) {
        [[unroll]] for (uint i = 0u; i < 3u; ++i)
            below[i] = wideLineBits(p0 + uvec3(0u, i, 0u), samples);
    } else {
        [[unroll]] for (uint i = 0u; i < 3u; ++i)
            below[i] = lineAt(p0 + uvec3(0u, i, 0u), samples);
    }
    for (uint layer = 0u; layer < layers; ++layer) {
        uint stage = layer & 1u;
        for (uint zParity = 0u; zParity < 2u; ++zParity) {
            uvec3 p = p0 + uvec3(0u, 0u, 4u * layer + 2u * zParity);
            uint mid[3], top[3];
            if (BYTE_LINES != 0u) {
                [[unroll]] for (uint i = 0u; i < 3u; ++i) {
                    mid[i] = byteLineBits(loaded[i], p + uvec3(0u, i, 1u), samples);
                    top[i] = byteLineBits(loaded[3u + i], p + uvec3(0u, i, 2u), samples);
                }
                // The next step's lines, in flight during this step's work; the column's
                // last step loads its own again (cache hits) rather than branch.
                bool next = zParity == 0u || layer + 1u < layers;
                loadStep(next ? p + uvec3(0u, 0u, 2u) : p, samples, loaded);
            } else if (wideLines()) {
                [[unroll]] for (uint i = 0u; i < 3u; ++i) {
                    mid[i] = wideLineBits(p + uvec3(0u, i, 1u), samples);
                    top[i] = wideLineBits(p + uvec3(0u, i, 2u), samples);
                }
            } else {
                [[unroll]] for (uint i = 0u; i < 3u; ++i) {
                    mid[i] = lineAt(p + uvec3(0u, i, 1u), samples);
                    top[i] = lineAt(p + uvec3(0u, i, 2u), samples);
                }
            }
            uvec4 pairs = nodeLayer(below, mid, top, p, samples);
            uint word = yParity + 2u * zParity;
            [[unroll]] for (uint n = 0u; n < RUN_PARENTS; ++n)
                staged[stage][slot * RUN_PARENTS + n][word] = pairs[n];
            below = top;
        }
        barrier(); // the layer's entries are all staged; the other stage's were stored before this
        uint pz = firstLayer + layer;
        [[unroll]] for (uint k = 0u; k < 2u; ++k) {
            uint s = gl_LocalInvocationIndex + 64u * k; // staged node: run s / RUN_PARENTS, its (s % RUN_PARENTS)-th
            uint nodeRun = firstRun + s / RUN_PARENTS;
            uint row = nodeRun / runsPerRow;
            uvec3 node = uvec3((nodeRun - row * runsPerRow) * RUN_PARENTS + s % RUN_PARENTS, row, pz);
            if (nodeRun >= layerRuns || node.x >= d2.x)
                continue;
            uvec4 entries = staged[stage][s];
            pyramidVectorsOut[(levels[1].w >> 2) + linearIndex(node, d2)] = entries;
            // Level 2: the sums of the eight entries (vertices in the low byte of each half, triangles in the high).
            uvec4 vertices = entries & 0x00FF00FFu, triangles = (entries >> 8) & 0x00FF00FFu;
            uint v = vertices.x + vertices.y + vertices.z + vertices.w;
            uint t = triangles.x + triangles.y + triangles.z + triangles.w;
            uint first = levels[2].w + childrenEntry(2u, node >> 1);
            pyramid[first + octantOf(node)] = ((v & 0xFFFFu) + (v >> 16)) | ((t & 0xFFFFu) + (t >> 16)) << 16;
            // A level-3 node's children past level 2's last node count zero: its first child writes them.
            if (octantOf(node) == 0u)
                for (uint o = 1u; o < 8u; ++o)
                    if (any(greaterThanEqual(node + octantOffset(o), d2)))
                        pyramid[first + o] = 0u;
        }
    }
}
