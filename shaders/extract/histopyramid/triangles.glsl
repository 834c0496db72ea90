// The HistoPyramid's triangle pass, welded (triangles.comp) or a soup
// (triangle_soup.comp): invocation t finds, by a HistoPyramid traversal, the
// cell that holds triangle t and its index there, and takes its three edges
// from the case table. Welded, each corner is the vertex of the edge's owner
// point: the owner's rank in the pyramid (from the cell's, which the
// traversal sums on its way down) plus its crossed edges on lower axes. As a soup (TRIANGLE_SOUP), it writes its own three vertices. Two
// files rather than a specialization constant, so that the welded one has no
// vertex binding and the render graph puts no barrier between it and the
// vertex pass.

#define VOLUME_BINDING 0
#define LEVELS_BINDING 1
#define PYRAMID_BINDING 2
#define PYRAMID_ACCESS readonly
#define MESH_COUNTERS_READ_ONLY
#ifdef TRIANGLE_SOUP
#define MESH_VERTICES_BINDING 3
#define MESH_INDICES_BINDING 4
#define MESH_COUNTERS_BINDING 5
#define DISPATCH_BINDING 6
#define CASE_TABLE_BINDING 7
#define PYRAMID_VECTORS_BINDING 8
const uint WELD = 0u;
#else
// Indices only: no barrier to the vertex pass, which writes only vertices.
#define MESH_NO_VERTICES
#define MESH_INDICES_BINDING 3
#define MESH_COUNTERS_BINDING 4
#define DISPATCH_BINDING 5
#define CASE_TABLE_BINDING 6
#define PYRAMID_VECTORS_BINDING 7
const uint WELD = 1u;
#endif
#define DISPATCH_ACCESS readonly
#include "histopyramid_common.glsl"
#include "mesh_output.glsl"
#include "case_table.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint WORKGROUP_SIZE = 64;

void main()
{
    uint t = flatWorkgroupIndex() * WORKGROUP_SIZE + gl_LocalInvocationIndex;
    if (t >= totals.y)
        return;
    uint local, cellRank;
    uvec3 cell = findElement(t, TRIANGLES, local, cellRank);
    uint caseIndex = 0u;
    for (uint c = 0u; c < 8u; ++c)
        caseIndex |= isInside(sampleAt(cell + octantOffset(c))) ? 1u << c : 0u;
    uvec2 words = caseWords(caseIndex);
    uint corners[3];
    for (uint k = 0u; k < 3u; ++k) {
        uint edge = caseEdgeIn(words, 3u * local + k);
        uvec3 owner = cell + cubeEdgeStart(edge);
        uint axis = cubeEdgeAxis(edge);
#ifdef TRIANGLE_SOUP
        corners[k] = 3u * t + k;
        EdgeVertex vertex = edgeVertex(owner, axis);
        writeMeshVertex(corners[k], vertex.position, vertex.normal);
#else
        uint crossed = pointByteAt(owner) & 7u;
        corners[k] = vertexRankFrom(cell, cellRank, owner) + bitCount(crossed & ((1u << axis) - 1u));
#endif
    }
    writeMeshTriangle(t, corners[0], corners[1], corners[2]);
}
