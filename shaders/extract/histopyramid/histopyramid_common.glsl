// What the HistoPyramid method's passes share (Dyken, Ziegler, Theobalt,
// Seidel: "High-speed Marching Cubes using HistoPyramids"): the grid, the
// pyramid's levels, the traversal that finds the k-th output element, and
// the rank of a point (how many vertices come before it).
//
// The pyramid is built over grid points, as the scan method classifies
// them: point p owns the grid edges leaving it along +x, +y and +z (its
// crossed ones are its vertices, as in the welded CPU reference) and is the
// lowest corner of cell p, whose triangles it holds. Level 0 holds a byte per
// point: its crossed owned edges (bits 0-2) and its cell's triangle count
// (bits 3-5). Level l + 1 holds, per node, the sums of its 2×2×2 children at
// level l. A node's eight children are stored together, in the octant order
// x + 2y + 4z, at 8 × (the node's index at its level, x fastest), so a
// traversal step reads one contiguous group, and the top node's children are
// entries 0-7 of the highest stored level. Counts are packed as narrowly as a
// level allows: level 1 in 16 bits (vertices | triangles << 8), levels 2-4 in
// 32 (vertices | triangles << 16), the higher levels in two words.
//
// Before including: VOLUME_BINDING, LEVELS_BINDING, PYRAMID_BINDING and
// PYRAMID_ACCESS; DISPATCH_BINDING and DISPATCH_ACCESS for the passes that
// use the indirect dispatches.

layout(set = 0, binding = VOLUME_BINDING, std430) readonly buffer VolumeWords { uint volumeWords[]; };
#include "volume_buffer.glsl"

// Per level: its dims in nodes (xyz) and where its entries start in the
// pyramid buffer, in words (w); levels[0] is the grid of points.
layout(set = 0, binding = LEVELS_BINDING, std430) readonly buffer Levels { uvec4 levels[]; };

layout(set = 0, binding = PYRAMID_BINDING, std430) PYRAMID_ACCESS buffer Pyramid { uint pyramid[]; };

#ifdef DISPATCH_BINDING
// Written by prepare.comp: the VkDispatchIndirectCommand of the vertex pass,
// then of the triangle pass, then the counts those passes run to.
layout(set = 0, binding = DISPATCH_BINDING, std430) DISPATCH_ACCESS buffer Dispatch {
    uvec3 vertexGroups;
    uint pad0;
    uvec3 triangleGroups;
    uint pad1;
    uvec2 totals;
};
#endif

layout(push_constant) uniform Grid {
    uint nx, ny, nz;
    uint topLevel;   // the level of the single top node: its children are the entries of topLevel - 1
    uint scalarType;
    float iso;
    float originX, originY, originZ;
    float spacingX, spacingY, spacingZ;
    uint level;      // reduce.comp: the level it writes
} grid;

const uint VERTICES = 0u, TRIANGLES = 1u;

float sampleAt(uvec3 p) { return volumeSampleAt(p.x + grid.nx * (p.y + grid.ny * p.z), grid.scalarType); }

#include "point_grid.glsl"

uint linearIndex(uvec3 p, uvec3 dims) { return p.x + dims.x * (p.y + dims.y * p.z); }
uvec3 octantOffset(uint octant) { return uvec3(octant & 1u, (octant >> 1) & 1u, octant >> 2); }
uint octantOf(uvec3 p) { return (p.x & 1u) | ((p.y & 1u) << 1) | ((p.z & 1u) << 2); }

// Where the eight children of node q of level l + 1 start among the entries of level l.
uint childrenEntry(uint l, uvec3 q) { return 8u * linearIndex(q, levels[l + 1u].xyz); }

// The node whose counts a level's entry holds, the parents being `parentDims`
// (the inverse of childrenEntry + octantOf): it may lie outside its level.
uvec3 nodeOfEntry(uint entry, uvec3 parentDims)
{
    uint n = entry >> 3;
    uvec3 parent = uvec3(n % parentDims.x, (n / parentDims.x) % parentDims.y, n / (parentDims.x * parentDims.y));
    return 2u * parent + octantOffset(entry & 7u);
}

// Workgroups are dispatched in 2D (ComputeProgram::dispatchLine).
uint flatWorkgroupIndex() { return gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x; }

// A point's byte at level 0.
uint pointByte(uint entry) { return bitfieldExtract(pyramid[levels[0].w + (entry >> 2)], int(entry & 3u) * 8, 8); }
uint vertexCountOfByte(uint b) { return bitCount(b & 7u); }
uint triangleCountOfByte(uint b) { return b >> 3; }

// The (vertices, triangles) of entry `entry` of level l (l >= 1).
uvec2 entryCounts(uint l, uint entry)
{
    uint base = levels[l].w;
    if (l == 1u) {
        uint half16 = bitfieldExtract(pyramid[base + (entry >> 1)], int(entry & 1u) * 16, 16);
        return uvec2(half16 & 0xFFu, half16 >> 8);
    }
    if (l <= 4u) {
        uint word = pyramid[base + entry];
        return uvec2(word & 0xFFFFu, word >> 16);
    }
    return uvec2(pyramid[base + 2u * entry], pyramid[base + 2u * entry + 1u]);
}

#ifdef PYRAMID_VECTORS_BINDING
// The pyramid again as 16-byte vectors: the eight children of a node, which
// lie together and start on 8 bytes at level 0 and on 16 above (levels start
// on 16 bytes), come in one load, two from level 2 and four from level 5,
// where one word a child took eight.
layout(set = 0, binding = PYRAMID_VECTORS_BINDING, std430) readonly buffer PyramidVectors { uvec4 pyramidVectors[]; };

// The (vertices, triangles) of the eight entries of level l from `first`, a node's children.
void groupCounts(uint l, uint first, out uint vertices[8], out uint triangles[8])
{
    uint word = levels[l].w;
    if (l == 0u) {
        word += first >> 2;
        uvec4 v = pyramidVectors[word >> 2];
        uvec2 bytes = (word & 2u) != 0u ? v.zw : v.xy;
        [[unroll]] for (uint o = 0u; o < 8u; ++o) {
            uint b = bitfieldExtract(bytes[o >> 2], int(8u * (o & 3u)), 8);
            vertices[o] = vertexCountOfByte(b);
            triangles[o] = triangleCountOfByte(b);
        }
    } else if (l == 1u) {
        uvec4 v = pyramidVectors[(word + (first >> 1)) >> 2];
        [[unroll]] for (uint o = 0u; o < 8u; ++o) {
            uint half16 = bitfieldExtract(v[o >> 1], int(16u * (o & 1u)), 16);
            vertices[o] = half16 & 0xFFu;
            triangles[o] = half16 >> 8;
        }
    } else if (l <= 4u) {
        uint at = (word + first) >> 2;
        uvec4 v[2] = uvec4[2](pyramidVectors[at], pyramidVectors[at + 1u]);
        [[unroll]] for (uint o = 0u; o < 8u; ++o) {
            vertices[o] = v[o >> 2][o & 3u] & 0xFFFFu;
            triangles[o] = v[o >> 2][o & 3u] >> 16;
        }
    } else {
        uint at = (word + 2u * first) >> 2;
        uvec4 v[4] = uvec4[4](pyramidVectors[at], pyramidVectors[at + 1u], pyramidVectors[at + 2u], pyramidVectors[at + 3u]);
        [[unroll]] for (uint o = 0u; o < 8u; ++o) {
            vertices[o] = v[o >> 1][2u * (o & 1u)];
            triangles[o] = v[o >> 1][2u * (o & 1u) + 1u];
        }
    }
}

// The point that holds output element k of `kind` (0-based, in pyramid
// order), k's index among that point's elements in `local`, and in `rank`
// how many vertices the pyramid orders before that point: from the top, at
// each level the child whose running count passes k, the vertices of the
// children before it added to the rank.
uvec3 findElement(uint k, uint kind, out uint local, out uint rank)
{
    uvec3 q = uvec3(0u);
    rank = 0u;
    for (int l = int(grid.topLevel) - 1; l >= 0; --l) {
        uint vertices[8], triangles[8];
        groupCounts(uint(l), childrenEntry(uint(l), q), vertices, triangles);
        uint chosen = 7u;
        bool found = false;
        [[unroll]] for (uint o = 0u; o < 7u; ++o) { // no branch: every lane runs the same seven steps
            uint count = kind == VERTICES ? vertices[o] : triangles[o];
            bool here = !found && k < count;
            chosen = here ? o : chosen;
            found = found || here;
            k -= found ? 0u : count;
            rank += found ? 0u : vertices[o];
        }
        q = 2u * q + octantOffset(chosen);
    }
    local = k;
    return q;
}

// The vertices of the siblings before `node` (a node of level l) in its parent.
uint verticesBefore(uint l, uvec3 node)
{
    uint vertices[8], triangles[8];
    groupCounts(l, childrenEntry(l, node >> 1), vertices, triangles);
    uint octant = octantOf(node), sum = 0u;
    [[unroll]] for (uint o = 0u; o < 7u; ++o)
        sum += o < octant ? vertices[o] : 0u;
    return sum;
}

// How many vertices the pyramid orders before point p, from the same count
// for point `from` (`fromRank`): the two differ only below their lowest common
// ancestor, a level or two up for neighbours, not all the way to the top.
uint vertexRankFrom(uvec3 from, uint fromRank, uvec3 p)
{
    uint rank = fromRank;
    uvec3 a = from, b = p;
    for (uint l = 0u; any(notEqual(a, b)); ++l) {
        rank += verticesBefore(l, b) - verticesBefore(l, a); // modulo 2^32: the sum is exact
        a >>= 1u;
        b >>= 1u;
    }
    return rank;
}
#endif

// The level-0 byte of point p.
uint pointByteAt(uvec3 p) { return pointByte(childrenEntry(0u, p >> 1) + octantOf(p)); }
