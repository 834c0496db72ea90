#version 460
// Dual Marching Cubes, pass 1 (paper, "DMC quadrilateral mesh", first
// kernel): one invocation per cell computes the cell's MC polygons, a vertex
// on the trilinear isosurface for each, with the normal interpolated from
// the corners' central-difference gradients, and stores the vertex's number
// in the edge hash table for every interior grid edge its polygon crosses,
// in the slot of the quad that keeps it oriented.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require

layout(constant_id = 0) const uint WORKGROUP_SIZE = 64;
layout(local_size_x_id = 0) in;

#define VOLUME_BINDING 0
#define TABLE_KEYS_BINDING 1
#define TABLE_QUADS_BINDING 2
#define TABLE_ACCESS
#define MESH_NO_INDICES
#define MESH_VERTICES_BINDING 3
#define MESH_COUNTERS_BINDING 4
#define DUAL_COUNTERS_BINDING 5
#include "mesh_output.glsl"
#include "dual_common.glsl"
#include "point_grid.glsl"
#include "dual_polygons.glsl"
#include "dual_vertex.glsl"

const uint MAX_PROBES = 64u;

void storeInTable(uint key, uint slot, uint vertex)
{
    uint h = hashKey(key);
    for (uint i = 0u; i < MAX_PROBES; ++i) {
        uint bucket = (h + i * (i + 1u) / 2u) & (grid.tableBuckets - 1u);
        uint previous = atomicCompSwap(tableKeys[bucket], NO_ENTRY, key);
        if (previous == NO_ENTRY)
            atomicAdd(edgesStored, 1u);
        if (previous == NO_ENTRY || previous == key) {
            tableQuads[bucket][slot] = vertex;
            return;
        }
    }
    atomicAdd(insertsFailed, 1u);
    meshOverflow = 1u;
}

// The slot of cell `cell` in the quad of the grid edge `e` of that cell.
// Around the edge (axis a, other axes b < c) the four cells, offset by
// (-u, -v) on (b, c), in the cycle (0,0), (1,0), (1,1), (0,1) run
// counter-clockwise around e_b x e_c (+x, -y, +z for a = x, y, z); the cycle
// is reversed where that would face toward larger values, since faces face
// out of the inside region (mesh/gpu_mesh.h, as the triangle methods').
uint quadSlot(uint e, bool lowerEndInside)
{
    uint uv = e & 3u;
    uint slot = uv == 2u ? 3u : (uv == 3u ? 2u : uv);
    bool facesPositive = (e >> 2) != 1u;
    return facesPositive == lowerEndInside ? slot : (4u - slot) & 3u;
}

void main()
{
    uint cellIndex = flatWorkgroupIndex() * WORKGROUP_SIZE + gl_LocalInvocationIndex;
    uvec3 cells = cellCounts();
    if (cellIndex >= cells.x * cells.y * cells.z)
        return;
    uvec3 q = uvec3(cellIndex % cells.x, (cellIndex / cells.x) % cells.y, cellIndex / (cells.x * cells.y));
    float f[8];
    uint insideMask = 0u;
    bool finite = true;
    for (uint c = 0u; c < 8u; ++c) {
        f[c] = sampleAt(q + uvec3(c & 1u, (c >> 1) & 1u, c >> 2));
        insideMask |= isInside(f[c]) ? 1u << c : 0u;
        finite = finite && isFiniteValue(f[c]);
    }
    if (insideMask == 0u || insideMask == 255u)
        return;
    CellPolygons polygons = cellPolygons(f);

    // Vertex numbers: one atomic per subgroup.
    uint first = subgroupExclusiveAdd(polygons.count);
    uint total = subgroupAdd(polygons.count);
    uint base = 0u;
    if (subgroupElect())
        base = atomicAdd(meshVertexCount, total);
    base = subgroupBroadcastFirst(base) + first;

    vec3 gradients[8];
    for (uint c = 0u; c < 8u; ++c)
        gradients[c] = gridGradient(q + uvec3(c & 1u, (c >> 1) & 1u, c >> 2));
    uint start = 0u;
    for (uint k = 0u; k < polygons.count; ++k) {
        bool fellBack;
        PolygonShape shape;
        vec3 local = representative(f, polygons, k, start, finite, fellBack, shape);
        if (fellBack)
            atomicAdd(fallbackVertices, 1u);
        vec3 g = mix(mix(mix(gradients[0], gradients[1], local.x), mix(gradients[2], gradients[3], local.x), local.y),
                     mix(mix(gradients[4], gradients[5], local.x), mix(gradients[6], gradients[7], local.x), local.y),
                     local.z);
        vec3 normal = -g;
        float len = length(normal);
        // Newell's vector of a loop points toward larger values (the loop
        // keeps the inside on its left): its opposite where the gradient vanishes.
        normal = len > 0.0 && !isinf(len) && !isnan(len) ? normal / len : -normalize(shape.area);
        uint vertex = base + k;
        writeMeshVertex(vertex, gridOrigin() + (vec3(q) + local) * gridSpacing(), normal);
        start += polygonSize(polygons, k);
    }

    // Quads: each interior crossed edge of the cell gets this cell's vertex
    // of the polygon that crosses it (boundary edges, with fewer than four
    // cells, make no quad and are not stored).
    for (uint e = 0u; e < 12u; ++e) {
        uint axis = e >> 2;
        uint otherLow = axis == 0u ? 1u : 0u;
        uint otherHigh = axis == 2u ? 1u : 2u;
        uint u = e & 1u, v = (e >> 1) & 1u;
        uint c0 = (u << otherLow) | (v << otherHigh);
        bool lowerInside = (insideMask >> c0 & 1u) != 0u;
        if (lowerInside == ((insideMask >> (c0 | (1u << axis)) & 1u) != 0u))
            continue;
        uvec3 p = q + uvec3(c0 & 1u, (c0 >> 1) & 1u, c0 >> 2);
        uvec3 dims = gridDims();
        if (p[otherLow] == 0u || p[otherLow] + 1u >= dims[otherLow] || p[otherHigh] == 0u ||
            p[otherHigh] + 1u >= dims[otherHigh])
            continue;
        storeInTable(edgeKey(p, axis), quadSlot(e, lowerInside), base + polygons.polygonOf[e]);
    }
}
