#version 460
// The mesh's triangles: invocation t finds, by a HistoPyramid traversal, the
// cell that holds triangle t and its index there, and takes its three edges
// from the case table. Welded, each corner is the vertex of the edge's
// owner point: the owner's rank in the pyramid plus its crossed edges on
// lower axes. As a soup (WELD = 0), it writes its own three vertices.
#extension GL_GOOGLE_include_directive : require

#define VOLUME_BINDING 0
#define LEVELS_BINDING 1
#define PYRAMID_BINDING 2
#define PYRAMID_ACCESS readonly
#define MESH_VERTICES_BINDING 3
#define MESH_INDICES_BINDING 4
#define MESH_COUNTERS_BINDING 5
#define CASE_TABLE_BINDING 7
#define DISPATCH_BINDING 6
#define DISPATCH_ACCESS readonly
#include "histopyramid_common.glsl"
#include "mesh_output.glsl"
#include "case_table.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint WORKGROUP_SIZE = 64;
layout(constant_id = 1) const uint WELD = 1;

void main()
{
    uint t = flatWorkgroupIndex() * WORKGROUP_SIZE + gl_LocalInvocationIndex;
    if (t >= totals.y)
        return;
    uint local;
    uvec3 cell = findElement(t, TRIANGLES, local);
    uint caseIndex = 0u;
    for (uint c = 0u; c < 8u; ++c)
        caseIndex |= isInside(sampleAt(cell + octantOffset(c))) ? 1u << c : 0u;
    uvec2 words = caseWords(caseIndex);
    uint corners[3];
    for (uint k = 0u; k < 3u; ++k) {
        uint edge = caseEdgeIn(words, 3u * local + k);
        uvec3 owner = cell + cubeEdgeStart(edge);
        uint axis = cubeEdgeAxis(edge);
        if (WELD != 0u) {
            uint crossed = pointByteAt(owner) & 7u;
            corners[k] = vertexRank(owner) + bitCount(crossed & ((1u << axis) - 1u));
        } else {
            corners[k] = 3u * t + k;
            EdgeVertex vertex = edgeVertex(owner, axis);
            writeMeshVertex(corners[k], vertex.position, vertex.normal);
        }
    }
    writeMeshTriangle(t, corners[0], corners[1], corners[2]);
}
