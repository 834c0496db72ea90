#version 460
// The HistoPyramid's lowest two levels for volumes under 2^23 points
// (histoPyramidBaseInColumns; base.comp above): one invocation per run of eight x-adjacent level-1 nodes (16 × 2 × 2 points)
// reads the nine lines of 17 samples they need with wide loads
// (line_inside_bits.glsl), classifies the 64 points by bit arithmetic on the
// lines' inside bits, and writes the nodes' level-1 counts (zero for entries
// whose node lies outside the grid) and the level-0 bytes of the nodes whose
// counts are not zero: no traversal reads the bytes of a node it does not
// enter, and most nodes lie in empty space. Only points whose cell has
// corners on both sides load the case table.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#define VOLUME_BINDING 0
#define LEVELS_BINDING 1
#define PYRAMID_BINDING 2
#define PYRAMID_ACCESS
#define CASE_TABLE_BINDING 3
#define VOLUME_VECTORS_BINDING 4
#define VOLUME_PAIRS_BINDING 5
#include "histopyramid_common.glsl"
#include "case_table.glsl"
// One pipeline for every type: the uint8 lines a word at a time, as at the
// session start, for the 16-bit volumes' code (docs/BENCHMARKS.md, regress).
#define LINE_BYTES_BY_WORDS true
#include "line_inside_bits.glsl"

layout(local_size_x = 64) in;

const uint RUN_NODES = 8u; // level-1 nodes a run: 16 points along x

// Bits 0..3 of v, one to the lowest bit of each byte.
uint spreadNibble(uint v) { return ((v & 0xFu) * 0x00204081u) & 0x01010101u; }

// A row of 16 points' masks (bit k: point x0 + k): its crossed owned edges
// along x, y, z and the three bits of its cell's triangle count.
struct PointRow {
    uint cx, cy, cz, t0, t1, t2;
};

// The row of points (x0.., y, z) from its line `a`, the lines one step along
// y (`b`) and z (`c`) and both (`d`).
PointRow pointRow(uint a, uint b, uint c, uint d, bool inGrid, bool hasY, bool hasZ, uint pointMask, uint edgeMask)
{
    PointRow r = PointRow(0u, 0u, 0u, 0u, 0u, 0u);
    if (!inGrid)
        return r;
    r.cx = (a ^ (a >> 1)) & edgeMask;
    r.cy = hasY ? (a ^ b) & pointMask : 0u;
    r.cz = hasZ ? (a ^ c) & pointMask : 0u;
    if (!hasY || !hasZ)
        return r;
    uint someIn = a | b | c | d, allIn = a & b & c & d;
    for (uint m = (someIn | (someIn >> 1)) & ~(allIn & (allIn >> 1)) & edgeMask; m != 0u; m &= m - 1u) {
        uint k = uint(findLSB(m));
        uint caseIndex = ((a >> k) & 3u) | ((b >> k) & 3u) << 2 | ((c >> k) & 3u) << 4 | ((d >> k) & 3u) << 6;
        uint t = caseTriangleCount(caseIndex);
        r.t0 |= (t & 1u) << k;
        r.t1 |= ((t >> 1) & 1u) << k;
        r.t2 |= (t >> 2) << k;
    }
    return r;
}

// Level-0 bytes of points x0 + 4w .. x0 + 4w + 3 of a row (pointByteOf's layout).
uint rowBytes(PointRow r, uint w)
{
    uint s = 4u * w;
    return spreadNibble(r.cx >> s) | spreadNibble(r.cy >> s) << 1 | spreadNibble(r.cz >> s) << 2 |
           spreadNibble(r.t0 >> s) << 3 | spreadNibble(r.t1 >> s) << 4 | spreadNibble(r.t2 >> s) << 5;
}

// The two points of node n in a row: their 16 bits of level 0.
uint nodeHalf(PointRow r, uint n) { return bitfieldExtract(rowBytes(r, n >> 1), int(16u * (n & 1u)), 16); }

uvec2 nodeCounts(PointRow r, uint n)
{
    uint m = 3u << (2u * n);
    return uvec2(bitCount(r.cx & m) + bitCount(r.cy & m) + bitCount(r.cz & m),
                 bitCount(r.t0 & m) + 2u * bitCount(r.t1 & m) + 4u * bitCount(r.t2 & m));
}

void main()
{
    uvec3 d1 = levels[1].xyz, d2 = levels[2].xyz; // level-1 nodes, and their parents
    // Runs cover level 1's entries: 2 d2 nodes along each axis, x in runs of eight.
    uint runsPerRow = (2u * d2.x + RUN_NODES - 1u) / RUN_NODES;
    uint run = flatWorkgroupIndex() * 64u + gl_LocalInvocationIndex;
    if (run >= runsPerRow * 4u * d2.y * d2.z)
        return;
    uint nodeRow = run / runsPerRow;
    uvec3 q0 = uvec3((run - nodeRow * runsPerRow) * RUN_NODES, nodeRow % (2u * d2.y), nodeRow / (2u * d2.y));
    uvec3 p0 = 2u * q0; // the run's first point
    uvec3 dims = gridDims();

    PointRow rows[4]; // dy + 2 dz
    if (p0.y < dims.y && p0.z < dims.z) {
        uint samples = min(2u * RUN_NODES + 1u, dims.x - p0.x);
        uint lines[9]; // dy + 3 dz; lines past the grid stay 0, as nothing reads them
        [[unroll]] for (uint l = 0u; l < 9u; ++l) {
            uvec3 p = p0 + uvec3(0u, l % 3u, l / 3u);
            lines[l] = p.y < dims.y && p.z < dims.z ? lineInsideBits(linearIndex(p, dims), samples) : 0u;
        }
        uint points = min(2u * RUN_NODES, dims.x - p0.x);
        uint pointMask = (1u << points) - 1u;
        uint edgeMask = (1u << min(2u * RUN_NODES, dims.x - 1u - p0.x)) - 1u; // points with a +x neighbour
        [[unroll]] for (uint r = 0u; r < 4u; ++r) {
            uint dy = r & 1u, dz = r >> 1;
            uvec3 p = p0 + uvec3(0u, dy, dz);
            uint l = dy + 3u * dz;
            rows[r] = pointRow(lines[l], lines[l + 1u], lines[l + 3u], lines[l + 4u], p.y < dims.y && p.z < dims.z,
                               p.y + 1u < dims.y, p.z + 1u < dims.z, pointMask, edgeMask);
        }
    } else {
        [[unroll]] for (uint r = 0u; r < 4u; ++r)
            rows[r] = PointRow(0u, 0u, 0u, 0u, 0u, 0u);
    }

    bool nodeRowInGrid = q0.y < d1.y && q0.z < d1.z;
    uint level1 = levels[1].w + 4u * linearIndex(uvec3(q0.x / 2u, q0.y / 2u, q0.z / 2u), d2) + (q0.y & 1u) +
                  2u * (q0.z & 1u);
    uint anyBits = 0u;
    [[unroll]] for (uint r = 0u; r < 4u; ++r)
        anyBits |= rows[r].cx | rows[r].cy | rows[r].cz | rows[r].t0 | rows[r].t1 | rows[r].t2;
    uint level0 = levels[0].w + 2u * linearIndex(q0, d1);
    uint nodesInGrid = nodeRowInGrid && q0.x < d1.x ? min(RUN_NODES, d1.x - q0.x) : 0u;
    uint pairCounts = 0u;
    [[unroll]] for (uint n = 0u; n < RUN_NODES; ++n) {
        uvec3 q = q0 + uvec3(n, 0u, 0u);
        if (q.x >= 2u * d2.x)
            break;
        // Most runs lie in empty space (or solid inside): all their bytes and counts are 0.
        uvec2 counts = uvec2(0u);
        if (anyBits != 0u) {
            counts = nodeCounts(rows[0], n) + nodeCounts(rows[1], n) + nodeCounts(rows[2], n) + nodeCounts(rows[3], n);
            if (n < nodesInGrid && counts != uvec2(0u)) {
                pyramid[level0 + 2u * n] = nodeHalf(rows[0], n) | nodeHalf(rows[1], n) << 16;
                pyramid[level0 + 2u * n + 1u] = nodeHalf(rows[2], n) | nodeHalf(rows[3], n) << 16;
            }
        }
        // Two 16-bit entries a word (vertices | triangles << 8): the x-even node's low.
        pairCounts |= (counts.x | counts.y << 8) << (16u * (n & 1u));
        if ((n & 1u) == 1u) {
            pyramid[level1 + 4u * (n >> 1)] = pairCounts;
            pairCounts = 0u;
        }
    }
}
