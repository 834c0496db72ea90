#version 460
// The welded mesh's vertices: invocation v finds, by a HistoPyramid
// traversal, the point whose owned crossed edges hold vertex v, and places
// the vertex on that edge as the CPU reference does.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#define VOLUME_BINDING 0
#define LEVELS_BINDING 1
#define PYRAMID_BINDING 2
#define PYRAMID_ACCESS readonly
// Vertices only, the counters read (their capacities): no barrier to the
// triangle pass, which writes only indices.
#define MESH_NO_INDICES
#define MESH_COUNTERS_READ_ONLY
#define MESH_VERTICES_BINDING 3
#define MESH_COUNTERS_BINDING 4
#define DISPATCH_BINDING 5
#define DISPATCH_ACCESS readonly
#define PYRAMID_VECTORS_BINDING 6
#include "histopyramid_common.glsl"
#include "mesh_output.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint WORKGROUP_SIZE = 64;

void main()
{
    uint v = flatWorkgroupIndex() * WORKGROUP_SIZE + gl_LocalInvocationIndex;
    if (v >= totals.x)
        return;
    uint local, rank;
    uvec3 p = findElement(v, VERTICES, local, rank);
    uint crossed = pointByteAt(p) & 7u;
    for (uint i = 0u; i < local; ++i)
        crossed &= crossed - 1u; // drop the lowest: the local-th crossed edge remains lowest
    EdgeVertex vertex = edgeVertex(p, uint(findLSB(crossed)));
    writeMeshVertex(v, vertex.position, vertex.normal);
}
