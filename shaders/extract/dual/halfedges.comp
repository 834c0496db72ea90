#version 460
// Dual Marching Cubes halfedges, pass 1 (paper, "Halfedge data structure",
// first kernel): one invocation per halfedge (four per quad, halfedge
// 4f + i leaves corner i of face f) writes its origin, face and next, and
// lists itself among its origin's outgoing halfedges, which the twin pass
// searches. A vertex has at most twelve: one per quad around it, one quad
// per edge of its MC polygon.
#extension GL_GOOGLE_include_directive : require

layout(constant_id = 0) const uint WORKGROUP_SIZE = 64;
layout(local_size_x_id = 0) in;

#define MESH_NO_VERTICES
#define MESH_OUTPUT_READ_ONLY
#define MESH_INDICES_BINDING 0
#define MESH_COUNTERS_BINDING 1
#define DUAL_COUNTERS_BINDING 5
#include "mesh_output.glsl"
#include "dual_common.glsl"
#define HALFEDGE_ACCESS writeonly
#define OUTGOING_BINDING 3
#define OUTGOING_ACCESS
#include "dual_halfedge.glsl"

void main()
{
    uint h = flatWorkgroupIndex() * WORKGROUP_SIZE + gl_LocalInvocationIndex;
    if (h == 0u)
        checkExtraCapacity();
    if (h >= 4u * halfedgeFaces())
        return;
    uint face = h >> 2;
    uint origin = meshIndices[h];
    halfedges[h] = uvec4(origin, face, (face << 2) | ((h + 1u) & 3u), NO_ENTRY);
    uint slot = atomicAdd(outgoingCounts[origin], 1u);
    if (slot < MAX_OUTGOING)
        outgoing[origin * MAX_OUTGOING + slot] = h;
}
