#version 460
// Dual Marching Cubes, pass 2 (paper, second kernel): the quads into the
// index buffer. The paper's kernel visits every bucket of the edge hash
// table; here one invocation per listed cell with geometry (the active cell
// list, dispatched as cells.comp is) looks up the crossed interior edges the
// cell owns, its three edges on the upper sides (edges 3, 7 and 11: each
// interior grid edge is that edge of exactly one of its four cells), and
// writes their quads. Only interior edges were stored, so every stored quad
// has its four vertices; one that does not is counted (an engine bug the
// tests catch), never drawn.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require

layout(constant_id = 0) const uint WORKGROUP_SIZE = 64;
layout(constant_id = 1) const uint COLORS = 0; // 1: write each face's edge colour
layout(local_size_x_id = 0) in;

#define VOLUME_BINDING 0
#define TABLE_KEYS_BINDING 1
#define TABLE_QUADS_BINDING 2
#define TABLE_ACCESS readonly
#define MESH_NO_VERTICES
#define MESH_INDICES_BINDING 3
#define MESH_COUNTERS_BINDING 4
#define DUAL_COUNTERS_BINDING 5
#include "mesh_output.glsl"
#include "dual_common.glsl"
#include "point_grid.glsl"

// The paper's edge colouring, carried to the faces (one quad per grid edge):
// the colour of the cell whose lowest corner the edge leaves, times three,
// plus the edge's axis (24 colours); face_colors.comp reduces them to 5.
layout(set = 0, binding = 6, std430) writeonly buffer FaceColors { uint faceColors[]; };
layout(set = 0, binding = 7, std430) readonly buffer ActiveCells { uint activeCellList[]; }; // lower corners' point indices

uint edgeColor(uint key)
{
    uvec3 p = keyPoint(key);
    return 3u * ((p.x & 1u) | ((p.y & 1u) << 1) | ((p.z & 1u) << 2)) + keyAxis(key);
}

// The bucket of `key`, or NO_ENTRY where the store gave up (the table then grows).
uint findInTable(uint key)
{
    uint h = hashKey(key);
    for (uint i = 0u; i < MAX_PROBES; ++i) {
        uint bucket = probeBucket(h, i);
        uint stored = tableKeys[bucket];
        if (stored == key)
            return bucket;
        if (stored == NO_ENTRY)
            return NO_ENTRY;
    }
    return NO_ENTRY;
}

void main()
{
    uint job = flatWorkgroupIndex() * WORKGROUP_SIZE + gl_LocalInvocationIndex;
    bool hasJob = job < min(activeCellCount, grid.activeCellCapacity);
    uvec3 q = uvec3(0u);
    uint insideMask = 0u;
    if (hasJob) {
        uint point = activeCellList[job];
        q = uvec3(point % grid.nx, (point / grid.nx) % grid.ny, point / (grid.nx * grid.ny));
        for (uint c = 0u; c < 8u; ++c)
            insideMask |= isInside(sampleAt(q + uvec3(c & 1u, (c >> 1) & 1u, c >> 2))) ? 1u << c : 0u;
    }
    for (uint axis = 0u; axis < 3u; ++axis) {
        CellEdge edge = cellEdge(q, insideMask, 4u * axis + 3u);
        uvec4 quad = uvec4(NO_ENTRY);
        bool complete = false;
        if (hasJob && edge.crossed && edge.interior) {
            uint bucket = findInTable(edge.key);
            if (bucket != NO_ENTRY) {
                quad = tableQuads[bucket];
                complete = !any(equal(quad, uvec4(NO_ENTRY)));
                if (!complete)
                    atomicAdd(incompleteQuads, 1u);
            }
        }
        // Face numbers: one atomic per subgroup and axis.
        uint first = subgroupExclusiveAdd(complete ? 1u : 0u);
        uint total = subgroupAdd(complete ? 1u : 0u);
        if (total == 0u)
            continue;
        uint base = 0u;
        if (subgroupElect())
            base = atomicAdd(meshFaceCount, total);
        uint face = subgroupBroadcastFirst(base) + first;
        if (complete && face < meshFaceCapacity) {
            meshIndices[4u * face + 0u] = quad.x;
            meshIndices[4u * face + 1u] = quad.y;
            meshIndices[4u * face + 2u] = quad.z;
            meshIndices[4u * face + 3u] = quad.w;
            if (COLORS != 0u && face < grid.extraFaceCapacity)
                faceColors[face] = edgeColor(edge.key);
        }
    }
}
