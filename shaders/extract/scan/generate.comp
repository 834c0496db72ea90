#version 460
// Scan method, last pass (the CUDA sample's generateTriangles): one
// invocation per entry of the occupied-point list writes the point's
// vertices and its cell's triangles at the offsets the list pass stored.
// Welded: a point writes the vertices of the crossed edges it owns; a
// triangle corner finds its vertex through the list entry of the edge's
// owner (a search of the owner's row, a few entries long where a surface
// crosses it), or the seam buffer for the x/y edges of the slab's bottom
// plane, owned by the slab below. Soup: three fresh vertices per triangle,
// as the original.
#extension GL_GOOGLE_include_directive : require

layout(constant_id = 0) const uint WORKGROUP_SIZE = 64;
layout(constant_id = 1) const uint WELD = 1;
// Streamed slabs (extract/stream/): each vertex's edge code, which welds the
// slabs' shared planes on the host (extract/stream/slab_weld.h).
layout(constant_id = 2) const uint EDGE_CODES = 0;
layout(local_size_x_id = 0) in;

#define CASE_TABLE_BINDING 1
#include "case_table.glsl"
#define VOLUME_BINDING 0
#include "scan_grid.glsl"
#define MESH_VERTICES_BINDING 8
#define MESH_INDICES_BINDING 9
#define MESH_COUNTERS_BINDING 10
#include "mesh_output.glsl"

layout(set = 0, binding = 2, std430) readonly buffer List { uvec4 list[]; };
layout(set = 0, binding = 3, std430) readonly buffer RowStarts { uint rowStarts[]; };
layout(set = 0, binding = 4, std430) readonly buffer SlabTotals { uvec2 slabTotals[3]; }; // uint64 vertices, triangles, occupied
layout(set = 0, binding = 5, std430) readonly buffer SlabBase { uvec2 slabBase; };
// Vertex numbers of the x/y edges of the plane shared with the slab below
// (read) and above (written), two per point of a plane.
layout(set = 0, binding = 6, std430) readonly buffer SeamBelow { uint seamBelow[]; };
layout(set = 0, binding = 7, std430) writeonly buffer SeamAbove { uint seamAbove[]; };
// EDGE_CODES: per vertex, as the block method writes them (block_common.glsl):
// (last plane ? 1 << 31 : 0) | (y * nx + x) << 1 | axis for a vertex on an x-
// or y-edge of the streamed slab's first or last plane (the bottom of this
// extractor's first slab, the top of its last), else 0xFFFFFFFF.
layout(set = 0, binding = 11, std430) writeonly buffer VertexEdgeCodes { uint vertexEdgeCodes[]; };

// The list entry of point q, which owns a crossed edge and so has one.
uvec4 entryOf(uvec3 q)
{
    uint row = q.y + grid.ny * (q.z - grid.z0);
    uint low = min(rowStarts[row], grid.listCapacity);
    uint high = min(rowStarts[row + 1u], grid.listCapacity);
    uint target = slabIndex(q);
    while (low + 1u < high) { // list[low].x <= target < list[high].x
        uint middle = (low + high) / 2u;
        if (list[middle].x <= target)
            low = middle;
        else
            high = middle;
    }
    return low < grid.listCapacity ? list[low] : uvec4(0u);
}

void writeWeldedVertices(uvec3 p, uint first, uint ownedCrossed)
{
    bool seamPlane = p.z + 1u == grid.z0 + grid.planes && (grid.slabFlags & SLAB_LAST) == 0u;
    uint next = first;
    for (uint axis = 0u; axis < 3u; ++axis) {
        if ((ownedCrossed & (1u << axis)) == 0u)
            continue;
        EdgeVertex v = edgeVertex(p, axis);
        writeMeshVertex(next, v.position, v.normal);
        if (EDGE_CODES != 0u && next < meshVertexCapacity) {
            bool first = p.z == grid.z0 && (grid.slabFlags & SLAB_FIRST) != 0u;
            bool last = p.z + 1u == grid.z0 + grid.planes && (grid.slabFlags & SLAB_LAST) != 0u;
            vertexEdgeCodes[next] = axis < 2u && (first || last)
                                        ? (last ? 1u << 31 : 0u) | ((p.x + grid.nx * p.y) << 1) | axis
                                        : 0xFFFFFFFFu;
        }
        if (seamPlane)
            seamAbove[2u * (p.x + grid.nx * p.y) + axis] = next;
        ++next;
    }
}

void main()
{
    uint i = invocationIndex();
    if (i >= min(slabTotals[2].x, grid.listCapacity))
        return;
    uvec4 entry = list[i];
    uvec3 p = slabPoint(entry.x);
    uint caseIndex = entry.w & 0xFFu;
    uint ownedCrossed = entry.w >> 8;
    uvec2 offsets = slabBase + entry.yz;
    if (WELD != 0u)
        writeWeldedVertices(p, offsets.x, ownedCrossed);
    uint triangles = caseTriangleCount(caseIndex); // 0 for case 0: no cell
    // Welded: the first vertex and owned crossed edges of each corner that
    // owns an edge of this cell (corner 7 owns none), looked up once each.
    uvec2 owners[7];
    uint looked = 1u;
    owners[0] = uvec2(offsets.x, ownedCrossed);
    for (uint t = 0u; t < triangles; ++t) {
        uint corners[3];
        for (uint k = 0u; k < 3u; ++k) {
            uint edge = caseEdge(caseIndex, 3u * t + k);
            uvec3 start = cubeEdgeStart(edge);
            uint axis = cubeEdgeAxis(edge);
            if (WELD == 0u) {
                corners[k] = offsets.x + 3u * t + k;
                EdgeVertex v = edgeVertex(p + start, axis);
                writeMeshVertex(corners[k], v.position, v.normal);
                continue;
            }
            uvec3 owner = p + start;
            if (axis != 2u && owner.z == grid.z0 && (grid.slabFlags & SLAB_FIRST) == 0u) {
                corners[k] = seamBelow[2u * (owner.x + grid.nx * owner.y) + axis];
                continue;
            }
            uint corner = start.x + 2u * start.y + 4u * start.z;
            if ((looked & (1u << corner)) == 0u) {
                // The point after p on its row is the next entry: no search.
                uvec4 ownerEntry = corner == 1u ? list[min(i + 1u, grid.listCapacity - 1u)] : entryOf(owner);
                owners[corner] = uvec2(slabBase.x + ownerEntry.y, ownerEntry.w >> 8);
                looked |= 1u << corner;
            }
            corners[k] = owners[corner].x + bitCount(owners[corner].y & ((1u << axis) - 1u));
        }
        writeMeshTriangle(offsets.y + t, corners[0], corners[1], corners[2]);
    }
}
