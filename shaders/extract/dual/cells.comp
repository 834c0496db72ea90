#version 460
// Dual Marching Cubes, pass 1 (paper, "DMC quadrilateral mesh", first
// kernel): per cell with geometry (one invocation per entry of the list
// active_cells.comp wrote, dispatched indirectly) the cell's MC polygons, a
// vertex on the trilinear isosurface for each, with the normal interpolated
// from the corners' central-difference gradients, and stores the vertex's
// number in the edge hash table for every interior grid edge its polygon
// crosses, in the slot of the quad that keeps it oriented; the buckets it
// takes go to the stored-edge list that quads.comp reads.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_shuffle : require

layout(constant_id = 0) const uint WORKGROUP_SIZE = 64;
layout(constant_id = 1) const uint COLORS = 0; // 1: write each vertex's colour
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
void countWideSearch() { atomicAdd(wideSearches, 1u); }
#include "dual_vertex.glsl"

layout(set = 0, binding = 7, std430) readonly buffer ActiveCells { uint activeCellList[]; }; // lower corners' point indices
layout(set = 0, binding = 8, std430) writeonly buffer EdgeList { uint edgeList[]; };        // buckets taken

// The paper's vertex colouring: a vertex takes its cell's colour, one bit
// per axis of the cell's index (8 colours; vertices of one colour are never
// in neighbouring cells).
layout(set = 0, binding = 6, std430) writeonly buffer VertexColors { uint vertexColors[]; };

// The bucket of `key` from probe `first` of its sequence on (h: its hash),
// taken for it where free; `took` where this call took it. NO_ENTRY where
// no bucket was left within MAX_PROBES (the overflow flag is raised and the
// table grows).
uint findOrTake(uint key, uint h, uint first, out bool took)
{
    took = false;
    for (uint i = first; i < MAX_PROBES; ++i) {
        uint bucket = probeBucket(h, i);
        uint previous = atomicCompSwap(tableKeys[bucket], NO_ENTRY, key);
        if (previous == NO_ENTRY || previous == key) {
            took = previous == NO_ENTRY;
            return bucket;
        }
    }
    atomicAdd(insertsFailed, 1u);
    meshOverflow = 1u;
    return NO_ENTRY;
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

// A cell with geometry: its vertices, numbered from `base`.
void emitVertices(uvec3 q, float f[8], CellPolygons polygons, uint base)
{
    bool finite = true;
    for (uint c = 0u; c < 8u; ++c)
        finite = finite && isFiniteValue(f[c]);
    uint start = 0u;
    for (uint k = 0u; k < polygons.count; ++k) {
        bool fellBack;
        PolygonShape shape;
        vec3 local = representative(f, polygons, k, start, finite, fellBack, shape);
        if (fellBack)
            atomicAdd(fallbackVertices, 1u);
        // The corner gradients after the search, not held through it (registers).
        vec3 gradients[8];
        for (uint c = 0u; c < 8u; ++c)
            gradients[c] = cornerGradient(q, f, c);
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
        if (COLORS != 0u && vertex < grid.extraVertexCapacity)
            vertexColors[vertex] = (q.x & 1u) | ((q.y & 1u) << 1) | ((q.z & 1u) << 2);
        start += polygonSize(polygons, k);
    }
}

// Quads: each interior crossed edge of the cell gets this cell's vertex of
// the polygon that crosses it (boundary edges, with fewer than four cells,
// make no quad and are not stored). The first probes of all the cell's
// edges are issued before any result is used, so that the stores wait for
// one round trip to the table, not one per edge. The buckets taken go to
// the stored-edge list (quads.comp), their slots counted with one atomic
// per subgroup; every invocation calls this (`hasJob` false: no edges).
void storeEdges(bool hasJob, uvec3 q, uint insideMask, CellPolygons polygons, uint base)
{
    uint stored = 0u; // bit e: edge e is this cell's to store
    uint previous[12];
    [[unroll]] for (uint e = 0u; e < 12u; ++e) {
        CellEdge edge = cellEdge(q, insideMask, e);
        previous[e] = NO_ENTRY;
        if (hasJob && edge.crossed && edge.interior) {
            stored |= 1u << e;
            previous[e] = atomicCompSwap(tableKeys[probeBucket(hashKey(edge.key), 0u)], NO_ENTRY, edge.key);
        }
    }
    uint taken = 0u; // bit e: this cell took edge e's bucket
    uint buckets[12];
    [[unroll]] for (uint e = 0u; e < 12u; ++e) {
        buckets[e] = NO_ENTRY;
        if ((stored >> e & 1u) == 0u)
            continue;
        CellEdge edge = cellEdge(q, insideMask, e);
        uint h = hashKey(edge.key);
        bool took = previous[e] == NO_ENTRY;
        uint bucket = probeBucket(h, 0u);
        if (!took && previous[e] != edge.key) // a collision: probe on
            bucket = findOrTake(edge.key, h, 1u, took);
        if (bucket != NO_ENTRY)
            tableQuads[bucket][quadSlot(e, edge.lowerInside)] = base + polygonOfEdge(polygons, e);
        buckets[e] = bucket;
        taken |= took ? 1u << e : 0u;
    }
    uint count = bitCount(taken);
    uint first = subgroupExclusiveAdd(count);
    uint total = subgroupAdd(count);
    uint listBase = 0u;
    if (subgroupElect() && total != 0u)
        listBase = atomicAdd(edgesStored, total);
    uint index = subgroupBroadcastFirst(listBase) + first;
    [[unroll]] for (uint e = 0u; e < 12u; ++e) {
        if ((taken >> e & 1u) != 0u) {
            if (index < grid.edgeListCapacity)
                edgeList[index] = buckets[e];
            ++index;
        }
    }
}

void main()
{
    uint job = flatWorkgroupIndex() * WORKGROUP_SIZE + gl_LocalInvocationIndex;
    bool hasJob = job < min(activeCellCount, grid.activeCellCapacity);
    uvec3 q = uvec3(0u);
    float f[8];
    uint insideMask = 0u;
    CellPolygons polygons;
    polygons.count = 0u;
    if (hasJob) {
        uint point = activeCellList[job];
        q = uvec3(point % grid.nx, (point / grid.nx) % grid.ny, point / (grid.nx * grid.ny));
        for (uint c = 0u; c < 8u; ++c) {
            f[c] = sampleAt(q + uvec3(c & 1u, (c >> 1) & 1u, c >> 2));
            insideMask |= isInside(f[c]) ? 1u << c : 0u;
        }
        polygons = cellPolygons(f);
    }
    // Vertex numbers: one atomic per subgroup.
    uint first = subgroupExclusiveAdd(polygons.count);
    uint sum = subgroupAdd(polygons.count);
    uint base = 0u;
    if (subgroupElect())
        base = atomicAdd(meshVertexCount, sum);
    base = subgroupBroadcastFirst(base) + first;
    if (hasJob)
        emitVertices(q, f, polygons, base);
    storeEdges(hasJob, q, insideMask, polygons, base);
}
