#version 460
// The HistoPyramid's lowest two levels (histopyramid_common.glsl): one
// invocation per level-1 entry classifies its node's 2×2×2 points, writes
// their level-0 bytes and the node's level-1 counts (zero for an entry whose
// node lies outside the grid). The 3×3×3 samples a node needs are read once
// for its eight points.
#extension GL_GOOGLE_include_directive : require

#define VOLUME_BINDING 0
#define LEVELS_BINDING 1
#define PYRAMID_BINDING 2
#define PYRAMID_ACCESS
#define CASE_TABLE_BINDING 3
#include "histopyramid_common.glsl"
#include "case_table.glsl"
#include "byte_threshold.glsl"

layout(local_size_x = 64) in;

shared uint nodeCounts[64]; // vertices | triangles << 8 of this workgroup's level-1 nodes

// The level-0 byte of point p = corner0 + l (l in {0, 1}³), from the
// inside bits of the 3×3×3 samples from corner0 (bit x + 3y + 9z). A mask in
// a register, not an array: an array indexed by a computed position would
// live in local memory (on the H100 that made this pass 10× slower).
uint pointByteOf(uvec3 p, uint insideBits, uvec3 corner0)
{
    uvec3 dims = gridDims();
    if (any(greaterThanEqual(p, dims)))
        return 0u;
    uvec3 l = p - corner0;
    uint at = l.x + 3u * (l.y + 3u * l.z);
    uint self = (insideBits >> at) & 1u;
    uint crossed = 0u;
    if (p.x + 1u < dims.x && ((insideBits >> (at + 1u)) & 1u) != self)
        crossed |= 1u;
    if (p.y + 1u < dims.y && ((insideBits >> (at + 3u)) & 1u) != self)
        crossed |= 2u;
    if (p.z + 1u < dims.z && ((insideBits >> (at + 9u)) & 1u) != self)
        crossed |= 4u;
    uint triangles = 0u;
    if (all(lessThan(p + 1u, dims))) {
        // Corner c = (c & 1, (c >> 1) & 1, c >> 2): its sample is bit at + x + 3y + 9z.
        uint cube = insideBits >> at;
        uint caseIndex = (cube & 3u) | ((cube >> 3) & 3u) << 2 | ((cube >> 9) & 3u) << 4 | ((cube >> 12) & 3u) << 6;
        triangles = caseIndex != 0u && caseIndex != 255u ? caseTriangleCount(caseIndex) : 0u;
    }
    return crossed | triangles << 3;
}

// Inside bits of the three samples from (x, y, z) along x, x + 2 < nx: for
// uint8 one or two word loads compared four bytes at a time (as the scan
// method does), else one sample at a time.
uint rowInsideBits(uint start, uint threshold)
{
    if (grid.scalarType == SCALAR_UINT8) {
        if (threshold > 255u)
            return 0u;
        uint first = start & 3u;
        uint bits = bytesAtLeast(volumeWords[start >> 2], threshold);
        if (first > 1u)
            bits |= bytesAtLeast(volumeWords[(start >> 2) + 1u], threshold) << 4;
        return (bits >> first) & 7u;
    }
    uint bits = 0u;
    for (uint k = 0u; k < 3u; ++k)
        bits |= isInside(volumeSampleAt(start + k, grid.scalarType)) ? 1u << k : 0u;
    return bits;
}

void main()
{
    uint i = flatWorkgroupIndex() * 64u + gl_LocalInvocationIndex; // this node's level-1 entry
    uvec3 d1 = levels[1].xyz, d2 = levels[2].xyz; // level-1 nodes, and their parents
    uint parents = d2.x * d2.y * d2.z;
    uint counts = 0u;
    if (i < 8u * parents) {
        uvec3 q = nodeOfEntry(i, d2);
        if (all(lessThan(q, d1))) {
            uvec3 corner0 = 2u * q;
            uvec3 dims = gridDims();
            // Rows past the volume's last row or plane repeat it: the bits
            // they give are never read (pointByteOf checks the dims).
            uint insideBits = 0u;
            uint threshold = uint8ThresholdOf(grid.iso);
            for (uint r = 0u; r < 9u; ++r) {
                uvec3 start = min(corner0 + uvec3(0u, r % 3u, r / 3u), dims - 1u);
                uint row;
                if (corner0.x + 2u < dims.x) {
                    row = rowInsideBits(start.x + dims.x * (start.y + dims.y * start.z), threshold);
                } else { // the last points of a row: clamp x too
                    row = 0u;
                    for (uint k = 0u; k < 3u; ++k)
                        row |= isInside(sampleAt(min(start + uvec3(k, 0u, 0u), dims - 1u))) ? 1u << k : 0u;
                }
                insideBits |= row << (3u * r);
            }
            uint bytes[2] = uint[2](0u, 0u);
            uint vertices = 0u, triangles = 0u;
            for (uint c = 0u; c < 8u; ++c) {
                uint b = pointByteOf(corner0 + octantOffset(c), insideBits, corner0);
                bytes[c >> 2] |= b << (8u * (c & 3u));
                vertices += vertexCountOfByte(b);
                triangles += triangleCountOfByte(b);
            }
            uint word = levels[0].w + 2u * linearIndex(q, d1);
            pyramid[word] = bytes[0];
            pyramid[word + 1u] = bytes[1];
            counts = vertices | triangles << 8;
        }
    }
    nodeCounts[gl_LocalInvocationIndex] = counts;
    barrier();
    // Two 16-bit entries a word, written by the even one.
    if (i < 8u * parents && (i & 1u) == 0u)
        pyramid[levels[1].w + (i >> 1)] = counts | nodeCounts[gl_LocalInvocationIndex + 1u] << 16;
}
