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
// passes start at level 3. Only points whose cell has corners on both sides
// load the case table.
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

// One row of a run (16 points along x at one y and z) as three words, each
// two 16-bit masks (bit k: point x0 + k): its crossed owned edges along x | y
// << 16, along z | the first bit of its cell's triangle count << 16, and the
// second | third bit << 16.
uvec3 pointRow(uint a, uint b, uint c, uint d, bool inGrid, bool hasY, bool hasZ, uint pointMask, uint edgeMask)
{
    if (!inGrid)
        return uvec3(0u);
    uint cx = (a ^ (a >> 1)) & edgeMask;
    uint cy = hasY ? (a ^ b) & pointMask : 0u;
    uint cz = hasZ ? (a ^ c) & pointMask : 0u;
    uint t0 = 0u, t1 = 0u, t2 = 0u;
    if (hasY && hasZ) {
        uint someIn = a | b | c | d, allIn = a & b & c & d;
        for (uint m = (someIn | (someIn >> 1)) & ~(allIn & (allIn >> 1)) & edgeMask; m != 0u; m &= m - 1u) {
            uint k = uint(findLSB(m));
            uint caseIndex = ((a >> k) & 3u) | ((b >> k) & 3u) << 2 | ((c >> k) & 3u) << 4 | ((d >> k) & 3u) << 6;
            uint t = caseTriangleCount(caseIndex);
            t0 |= (t & 1u) << k;
            t1 |= ((t >> 1) & 1u) << k;
            t2 |= (t >> 2) << k;
        }
    }
    return uvec3(cx | cy << 16, cz | t0 << 16, t1 | t2 << 16);
}

// Bits s and s + 1 of both masks of `w` (a node's two points): bits 0 and 1 of
// byte 0 (point s), bits 0 and 1 of byte 1 (point s + 1).
uint pairBits(uint w, uint s)
{
    uint e = (w >> s) & 0x00030003u;
    return (e & 1u) | ((e >> 15) & 2u) | ((e & 2u) << 7) | ((e >> 8) & 0x200u);
}

// The level-0 bytes (pointByteOf's layout) of points s and s + 1 of a row.
uint nodeHalf(uvec3 row, uint s) { return pairBits(row.x, s) | pairBits(row.y, s) << 2 | pairBits(row.z, s) << 4; }

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
    uvec3 rows[4]; // dy + 2 dz
    rows[0] = pointRow(l0[0], l0[1], l1[0], l1[1], yIn[0] && zIn[0], yIn[1], zIn[1], pointMask, edgeMask);
    rows[1] = pointRow(l0[1], l0[2], l1[1], l1[2], yIn[1] && zIn[0], yIn[2], zIn[1], pointMask, edgeMask);
    rows[2] = pointRow(l1[0], l1[1], l2[0], l2[1], yIn[0] && zIn[1], yIn[1], zIn[2], pointMask, edgeMask);
    rows[3] = pointRow(l1[1], l1[2], l2[1], l2[2], yIn[1] && zIn[1], yIn[2], zIn[2], pointMask, edgeMask);
    uint pointBits = 0u; // bit k: point x + k has a crossed edge or a triangle in some row
    [[unroll]] for (uint r = 0u; r < 4u; ++r)
        pointBits |= rows[r].x | rows[r].y | rows[r].z;
    pointBits = (pointBits | (pointBits >> 16)) & 0xFFFFu;

    uvec3 q = p / 2u; // the first node
    uint level0 = levels[0].w + 2u * linearIndex(q, levels[1].xyz);
    uvec4 pairs = uvec4(0u);
    // Only the nodes with counts: few in a run that the surface crosses.
    for (uint m = (pointBits | (pointBits >> 1)) & 0x5555u; m != 0u; m &= m - 1u) {
        uint s = uint(findLSB(m)), n = s >> 1;
        uint w0 = nodeHalf(rows[0], s) | nodeHalf(rows[1], s) << 16;
        uint w1 = nodeHalf(rows[2], s) | nodeHalf(rows[3], s) << 16;
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
