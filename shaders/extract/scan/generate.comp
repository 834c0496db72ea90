#version 460
// Scan method, last pass (CUDA SDK marchingCubes, generateTriangles): one
// invocation per compacted point writes its vertices and its cell's
// triangles at the scanned offsets. Welded: a point writes the vertices of
// the crossed edges it owns; a triangle corner finds its vertex through the
// scanned offset of the edge's owner (or the seam buffer, for the x/y edges
// of the slab's bottom plane, owned by the slab below). Soup: three fresh
// vertices per triangle, as the original.
#extension GL_GOOGLE_include_directive : require

layout(constant_id = 0) const uint WORKGROUP_SIZE = 64;
layout(constant_id = 1) const uint WELD = 1;
layout(local_size_x_id = 0) in;

#define CASE_TABLE_BINDING 1
#include "case_table.glsl"
#define VOLUME_BINDING 0
#include "scan_grid.glsl"
#define MESH_VERTICES_BINDING 8
#define MESH_INDICES_BINDING 9
#define MESH_COUNTERS_BINDING 10
#include "mesh_output.glsl"

layout(set = 0, binding = 2, std430) readonly buffer PointOffsets { uvec2 pointOffsets[]; }; // exclusive scan
layout(set = 0, binding = 3, std430) readonly buffer ActivePoints { uint activePoints[]; };
layout(set = 0, binding = 4, std430) readonly buffer ActiveCount { uvec2 activeCount; };
layout(set = 0, binding = 5, std430) readonly buffer SlabBase { uvec2 slabBase; };
// Vertex numbers of the x/y edges of the plane shared with the slab below
// (read) and above (written), two per point of a plane.
layout(set = 0, binding = 6, std430) readonly buffer SeamBelow { uint seamBelow[]; };
layout(set = 0, binding = 7, std430) writeonly buffer SeamAbove { uint seamAbove[]; };

uint weldedVertex(uvec3 cell, uint edge)
{
    uvec3 owner = cell + cubeEdgeStart(edge);
    uint axis = cubeEdgeAxis(edge);
    if (axis != 2u && owner.z == grid.z0 && (grid.slabFlags & SLAB_FIRST) == 0u)
        return seamBelow[2u * (owner.x + grid.nx * owner.y) + axis];
    return slabBase.x + pointOffsets[slabIndex(owner)].x + ownedVerticesBefore(owner, axis);
}

void writeWeldedVertices(uvec3 p, uint first)
{
    bool seamPlane = p.z + 1u == grid.z0 + grid.planes && (grid.slabFlags & SLAB_LAST) == 0u;
    uint next = first;
    for (uint axis = 0u; axis < 3u; ++axis) {
        if (!ownsEdge(p, axis) || !edgeCrossed(p, axis))
            continue;
        EdgeVertex v = edgeVertex(p, axis);
        writeMeshVertex(next, v.position, v.normal);
        if (seamPlane)
            seamAbove[2u * (p.x + grid.nx * p.y) + axis] = next;
        ++next;
    }
}

void main()
{
    uint i = invocationIndex();
    if (i >= activeCount.x)
        return;
    uint local = activePoints[i];
    uvec3 p = slabPoint(local);
    uvec2 offsets = slabBase + pointOffsets[local];
    if (WELD != 0u)
        writeWeldedVertices(p, offsets.x);
    if (!hasCell(p))
        return;
    uint caseIndex = cellCase(p);
    uint triangles = caseTriangleCount(caseIndex);
    for (uint t = 0u; t < triangles; ++t) {
        uint corners[3];
        for (uint k = 0u; k < 3u; ++k) {
            uint edge = caseEdge(caseIndex, 3u * t + k);
            if (WELD != 0u) {
                corners[k] = weldedVertex(p, edge);
            } else {
                corners[k] = offsets.x + 3u * t + k;
                EdgeVertex v = edgeVertex(p + cubeEdgeStart(edge), cubeEdgeAxis(edge));
                writeMeshVertex(corners[k], v.position, v.normal);
            }
        }
        writeMeshTriangle(offsets.y + t, corners[0], corners[1], corners[2]);
    }
}
