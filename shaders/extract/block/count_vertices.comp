#version 460
// Welded meshes only, before the triangle pass: each listed block counts the
// crossed edges it owns, group by group (block_edges.glsl), and its cells'
// triangles; reserves both with one atomic each and stores where its vertex
// groups start, so that its lower neighbours can number the vertices they
// borrow from it. Blocks with neither (listed because the range test is
// conservative) are left out of the triangle pass.
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
        uint start[GROUP_COUNT + 1u];
        start[0] = 0u;
        for (uint g = 0u; g < GROUP_COUNT; ++g)
            start[g + 1u] = start[g] + groupCount[g];
        uint vertices = start[GROUP_COUNT];
        uint first = vertices > 0u ? atomicAdd(meshVertexCount, vertices) : 0u;
        slotVertices[slot] = uvec4(first, start[1] | (start[2] << 16), start[3] | (start[4] << 16),
                                   start[5] | (start[6] << 16));
        if (vertices > 0u || triangleTotal > 0u) {
            uint firstTriangle = triangleTotal > 0u ? atomicAdd(meshFaceCount, triangleTotal) : 0u;
            meshBlocks[atomicAdd(meshBlockCount, 1u)] = uvec2(slot, firstTriangle);
        }
    }
}
