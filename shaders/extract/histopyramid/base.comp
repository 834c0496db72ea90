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

layout(local_size_x = 64) in;

shared uint nodeCounts[64]; // vertices | triangles << 8 of this workgroup's level-1 nodes

uint pointByteOf(uvec3 p, bool inside[27], uvec3 corner0)
{
    uvec3 dims = gridDims();
    if (any(greaterThanEqual(p, dims)))
        return 0u;
    uvec3 l = p - corner0; // 0 or 1 on each axis: its samples are inside[l + offset]
    uint at = l.x + 3u * (l.y + 3u * l.z);
    bool self = inside[at];
    uint crossed = 0u;
    if (p.x + 1u < dims.x && inside[at + 1u] != self)
        crossed |= 1u;
    if (p.y + 1u < dims.y && inside[at + 3u] != self)
        crossed |= 2u;
    if (p.z + 1u < dims.z && inside[at + 9u] != self)
        crossed |= 4u;
    uint triangles = 0u;
    if (all(lessThan(p + 1u, dims))) {
        uint caseIndex = 0u;
        for (uint c = 0u; c < 8u; ++c) {
            uvec3 o = octantOffset(c);
            caseIndex |= inside[at + o.x + 3u * o.y + 9u * o.z] ? 1u << c : 0u;
        }
        triangles = caseIndex != 0u && caseIndex != 255u ? caseTriangleCount(caseIndex) : 0u;
    }
    return crossed | triangles << 3;
}

void main()
{
    uint i = flatWorkgroupIndex() * 64u + gl_LocalInvocationIndex; // this node's level-1 entry
    uvec3 d1 = levels[1].xyz, d2 = levels[2].xyz; // level-1 nodes, and their parents
    uint parents = d2.x * d2.y * d2.z;
    uint counts = 0u;
    if (i < 8u * parents) {
        uint n = i >> 3;
        uvec3 parent = uvec3(n % d2.x, (n / d2.x) % d2.y, n / (d2.x * d2.y));
        uvec3 q = 2u * parent + octantOffset(i & 7u);
        if (all(lessThan(q, d1))) {
            uvec3 corner0 = 2u * q;
            uvec3 dims = gridDims();
            bool inside[27];
            for (uint s = 0u; s < 27u; ++s) {
                uvec3 p = min(corner0 + uvec3(s % 3u, (s / 3u) % 3u, s / 9u), dims - 1u);
                inside[s] = isInside(sampleAt(p));
            }
            uint bytes[2] = uint[2](0u, 0u);
            uint vertices = 0u, triangles = 0u;
            for (uint c = 0u; c < 8u; ++c) {
                uint b = pointByteOf(corner0 + octantOffset(c), inside, corner0);
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
