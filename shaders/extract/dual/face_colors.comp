#version 460
// The paper's face colouring, second kernel: the faces of edge colour
// `colorClass` (5 .. 23, one pass each, in order) take the smallest colour
// of 0 .. 4 that none of their edge neighbours has. Faces
// of one edge colour never share an edge, so no two faces of a pass race,
// and a quad has at most four twins, so a colour is always free. The other
// faces on a non-manifold edge (found through the outgoing lists) are
// avoided too where a colour is left for that; the tests count the rest.
#extension GL_GOOGLE_include_directive : require

layout(constant_id = 0) const uint WORKGROUP_SIZE = 64;
layout(local_size_x_id = 0) in;

#define MESH_COUNTERS_ONLY
#define MESH_COUNTERS_READ_ONLY
#define MESH_COUNTERS_BINDING 0
#include "mesh_output.glsl"
#include "dual_common.glsl"
#define HALFEDGE_ACCESS readonly
#define OUTGOING_BINDING 3
#define OUTGOING_ACCESS readonly
#include "dual_halfedge.glsl"

layout(set = 0, binding = 1, std430) buffer FaceColors { uint faceColors[]; };

void main()
{
    uint face = flatWorkgroupIndex() * WORKGROUP_SIZE + gl_LocalInvocationIndex;
    if (face >= halfedgeFaces() || faceColors[face] != grid.colorClass)
        return;
    uint usedByTwins = 0u, used = 0u;
    for (uint i = 0u; i < 4u; ++i) {
        uint h = 4u * face + i;
        uint twin = halfedges[h].w;
        if (twin != NO_ENTRY)
            usedByTwins |= 1u << min(faceColors[twin >> 2], 31u);
        // Every face on the edge a - b: the halfedges a -> b and b -> a.
        uint a = halfedges[h].x, b = halfedges[halfedges[h].z].x;
        for (uint end = 0u; end < 2u; ++end) {
            uint from = end == 0u ? a : b, to = end == 0u ? b : a;
            uint n = min(outgoingCounts[from], MAX_OUTGOING);
            for (uint k = 0u; k < n; ++k) {
                uint g = outgoing[from * MAX_OUTGOING + k];
                if ((g >> 2) != face && halfedges[halfedges[g].z].x == to)
                    used |= 1u << min(faceColors[g >> 2], 31u);
            }
        }
    }
    uint free = ~used & 31u;
    if (free == 0u)
        free = ~usedByTwins & 31u;
    if (free != 0u)
        faceColors[face] = uint(findLSB(free));
}
