#version 460
// Welded meshes only, before the triangle pass: each listed block counts the
// crossed edges it owns, group by group (block_edge_groups.glsl), reserves
// them with one atomic and stores its first vertex and its groups' sizes, so
// that its lower neighbours can number the vertices they borrow from it.
#extension GL_GOOGLE_include_directive : require

#include "block_common.glsl"
#include "block_edges.glsl"

layout(local_size_x_id = 1) in;

shared uint groupCount[GROUP_COUNT];
shared uint triangleTotal;

void main()
{
    uint slot = listedSlot();
    if (slot >= listedCount())
        return; // uniform across the workgroup
    uvec3 block = blockCoordinates(activeBlocks[slot]);
    uint tid = gl_LocalInvocationIndex;
    for (uint g = tid; g < GROUP_COUNT; g += WORKGROUP_SIZE)
        groupCount[g] = 0u;
    if (tid == 0u)
        triangleTotal = 0u;
    cacheBlock(ivec3(block * blockSize()), false); // its barriers also order the zeroing

    // The workgroup is rounded up to whole subgroups; the extra invocations
    // own no voxel but take part in the barriers and scans.
    bool ownsVoxel = tid < BLOCK_X * BLOCK_Y * BLOCK_Z;
    uvec3 l = uvec3(tid % BLOCK_X, (tid / BLOCK_X) % BLOCK_Y, tid / (BLOCK_X * BLOCK_Y));
    for (uint axis = 0u; axis < 3u && ownsVoxel; ++axis)
        if (isCrossed(l, axis))
            atomicAdd(groupCount[edgeGroup(l, axis)], 1u);
    ivec3 origin = ivec3(block * blockSize());
    if (ownsVoxel && all(lessThan(origin + ivec3(l) + 1, params.dims))) {
        uint triangles = caseTriangleCount(cellCase(l));
        if (triangles > 0u)
            atomicAdd(triangleTotal, triangles);
    }
    barrier();

    if (tid == 0u) {
        uint sizes[BORROWED_GROUP_COUNT];
        uint vertices = groupCount[GROUP_INTERIOR];
        for (uint g = 0u; g < BORROWED_GROUP_COUNT; ++g) {
            sizes[g] = groupCount[g];
            vertices += sizes[g];
        }
        uint entry = slot * SLOT_WORDS;
        uvec2 packed = packGroupSizes(sizes);
        slotVertices[entry] = vertices > 0u ? atomicAdd(meshVertexCount, vertices) : 0u;
        slotVertices[entry + 1u] = packed.x;
        if (SLOT_WORDS > 2u)
            slotVertices[entry + 2u] = packed.y;
    }
}
