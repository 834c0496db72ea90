#version 460
// Dual Marching Cubes halfedges, pass 2 (paper, second kernel): each
// halfedge a -> b finds its twin among b's outgoing halfedges, those that
// run b -> a. A non-manifold edge (a tunnel between two cells) has two
// halfedges each way: the k-th of a -> b (by index) takes the k-th of
// b -> a, so twins always run opposite ways and every face keeps its
// orientation. A halfedge with no b -> a partner (a boundary) keeps
// NO_ENTRY. Each vertex's halfedge is its lowest-numbered outgoing one.
#extension GL_GOOGLE_include_directive : require

layout(constant_id = 0) const uint WORKGROUP_SIZE = 64;
layout(local_size_x_id = 0) in;

#define MESH_COUNTERS_ONLY
#define MESH_COUNTERS_READ_ONLY
#define MESH_COUNTERS_BINDING 0
#include "mesh_output.glsl"
#include "dual_common.glsl"
#define HALFEDGE_ACCESS
#define OUTGOING_BINDING 3
#define OUTGOING_ACCESS readonly
#include "dual_halfedge.glsl"

layout(set = 0, binding = 1, std430) writeonly buffer VertexHalfedges { uint vertexHalfedges[]; };

uint target(uint h) { return halfedges[halfedges[h].z].x; }

void main()
{
    uint h = flatWorkgroupIndex() * WORKGROUP_SIZE + gl_LocalInvocationIndex;
    if (h >= 4u * halfedgeFaces())
        return;
    uint a = halfedges[h].x, b = target(h);
    uint fromA = min(outgoingCounts[a], MAX_OUTGOING), fromB = min(outgoingCounts[b], MAX_OUTGOING);
    uint rank = 0u;
    bool lowest = true;
    for (uint i = 0u; i < fromA; ++i) {
        uint g = outgoing[a * MAX_OUTGOING + i];
        lowest = lowest && g >= h;
        rank += g < h && target(g) == b ? 1u : 0u;
    }
    if (lowest)
        vertexHalfedges[a] = h;
    uint twin = NO_ENTRY;
    for (uint i = 0u; i < fromB; ++i) {
        uint g = outgoing[b * MAX_OUTGOING + i];
        if (target(g) != a)
            continue;
        uint before = 0u;
        for (uint j = 0u; j < fromB; ++j) {
            uint k = outgoing[b * MAX_OUTGOING + j];
            before += k < g && target(k) == a ? 1u : 0u;
        }
        if (before == rank)
            twin = g;
    }
    halfedges[h].w = twin;
}
