#version 460
// Scan method, pass 1 (CUDA SDK marchingCubes, classifyVoxel): for every
// point of the slab, the vertices and triangles it will emit, as one uvec2
// that the next passes compact and scan. Welded: the crossed edges the point
// owns; soup: three vertices per triangle.
#extension GL_GOOGLE_include_directive : require

layout(constant_id = 0) const uint WORKGROUP_SIZE = 64;
layout(constant_id = 1) const uint WELD = 1;
layout(local_size_x_id = 0) in;

#define CASE_TABLE_BINDING 1
#include "case_table.glsl"
#define VOLUME_BINDING 0
#include "scan_grid.glsl"

layout(set = 0, binding = 2, std430) writeonly buffer PointCounts { uvec2 pointCounts[]; };

void main()
{
    uint local = invocationIndex();
    if (local >= slabPointCount())
        return;
    uvec3 p = slabPoint(local);
    uint triangles = hasCell(p) ? caseTriangleCount(cellCase(p)) : 0u;
    uint vertices = WELD != 0u ? ownedVerticesBefore(p, 3u) : 3u * triangles;
    pointCounts[local] = uvec2(vertices, triangles);
}
