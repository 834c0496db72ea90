#version 460
// Dual Marching Cubes, pass 2 (paper, second kernel): one invocation per
// bucket the cells pass took (its stored-edge list, dispatched indirectly;
// the paper's kernel visits every bucket) writes the bucket's quad to the
// index buffer. Only interior edges were stored, so every stored quad has its four
// vertices; one that does not is counted (an engine bug the tests catch),
// never drawn.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require

layout(constant_id = 0) const uint WORKGROUP_SIZE = 64;
layout(constant_id = 1) const uint COLORS = 0; // 1: write each face's edge colour
layout(local_size_x_id = 0) in;

#define TABLE_KEYS_BINDING 0
#define TABLE_QUADS_BINDING 1
#define TABLE_ACCESS readonly
#define MESH_NO_VERTICES
#define MESH_INDICES_BINDING 2
#define MESH_COUNTERS_BINDING 3
#define DUAL_COUNTERS_BINDING 4
#include "mesh_output.glsl"
#include "dual_common.glsl"

// The paper's edge colouring, carried to the faces (one quad per grid edge):
// the colour of the cell whose lowest corner the edge leaves, times three,
// plus the edge's axis (24 colours); face_colors.comp reduces them to 5.
layout(set = 0, binding = 5, std430) writeonly buffer FaceColors { uint faceColors[]; };
layout(set = 0, binding = 6, std430) readonly buffer EdgeList { uint edgeList[]; }; // buckets taken

uint edgeColor(uint key)
{
    uvec3 p = keyPoint(key);
    return 3u * ((p.x & 1u) | ((p.y & 1u) << 1) | ((p.z & 1u) << 2)) + keyAxis(key);
}

void main()
{
    uint job = flatWorkgroupIndex() * WORKGROUP_SIZE + gl_LocalInvocationIndex;
    if (job >= min(edgesStored, grid.edgeListCapacity))
        return;
    uint bucket = edgeList[job];
    uvec4 quad = tableQuads[bucket];
    if (any(equal(quad, uvec4(NO_ENTRY)))) {
        atomicAdd(incompleteQuads, 1u);
        return;
    }
    uint first = subgroupExclusiveAdd(1u);
    uint total = subgroupAdd(1u);
    uint base = 0u;
    if (subgroupElect())
        base = atomicAdd(meshFaceCount, total);
    uint face = subgroupBroadcastFirst(base) + first;
    if (face < meshFaceCapacity) {
        meshIndices[4u * face + 0u] = quad.x;
        meshIndices[4u * face + 1u] = quad.y;
        meshIndices[4u * face + 2u] = quad.z;
        meshIndices[4u * face + 3u] = quad.w;
        if (COLORS != 0u && face < grid.extraFaceCapacity)
            faceColors[face] = edgeColor(tableKeys[bucket]);
    }
}
