#version 460
// The paper's face colouring, second kernel: the faces of edge colour
// `colorClass` (5 .. 23, one pass each, in order) take the smallest colour
// of 0 .. 4 that none of their edge neighbours (halfedge twins) has. Faces
// of one edge colour never share an edge, so no two faces of a pass race,
// and a quad has at most four twins, so a colour is always free. Faces that
// share a non-manifold edge without being twins are not looked at: the
// tests count what that leaves.
#extension GL_GOOGLE_include_directive : require

layout(constant_id = 0) const uint WORKGROUP_SIZE = 64;
layout(local_size_x_id = 0) in;

#define MESH_COUNTERS_ONLY
#define MESH_COUNTERS_READ_ONLY
#define MESH_COUNTERS_BINDING 0
#include "mesh_output.glsl"
#include "dual_common.glsl"
#define HALFEDGE_ACCESS readonly
#include "dual_halfedge.glsl"

layout(set = 0, binding = 1, std430) buffer FaceColors { uint faceColors[]; };

void main()
{
    uint face = flatWorkgroupIndex() * WORKGROUP_SIZE + gl_LocalInvocationIndex;
    if (face >= halfedgeFaces() || faceColors[face] != grid.colorClass)
        return;
    uint used = 0u;
    for (uint i = 0u; i < 4u; ++i) {
        uint twin = halfedges[4u * face + i].w;
        if (twin != NO_ENTRY)
            used |= 1u << min(faceColors[twin >> 2], 31u);
    }
    if ((~used & 31u) != 0u)
        faceColors[face] = uint(findLSB(~used & 31u));
}
