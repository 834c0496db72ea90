#version 460
// Pass 2 (paper section 4.2): the list of blocks the isosurface can cross.
// One invocation per block; a workgroup scan gives each active block its
// place within the workgroup and one atomic per workgroup its place in the
// list. A block's cells and edges reach one voxel past its own voxels, so it
// is active when the range over itself and its up-to-7 upper neighbours holds
// an inside sample (>= iso) and an outside one (< iso, or not finite).
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

#include "block_common.glsl"
#include "subgroup_scan.glsl"

layout(local_size_x_id = 1) in;


shared uint workgroupBase;

void main()
{
    uint blockCount = params.blockCounts.x * params.blockCounts.y * params.blockCounts.z;
    uint blockIndex = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * WORKGROUP_SIZE + gl_LocalInvocationIndex;
    bool isActive = false;
    if (blockIndex < blockCount) {
        uvec3 b = blockCoordinates(blockIndex);
        vec2 range = vec2(1.0 / 0.0, -1.0 / 0.0);
        for (uint n = 0; n < 8; ++n) {
            uvec3 neighbour = b + uvec3(n & 1u, (n >> 1) & 1u, (n >> 2) & 1u);
            if (all(lessThan(neighbour, params.blockCounts))) {
                vec2 r = unpackHalf2x16(blockMinMax[blockIndexOf(neighbour)]);
                range = vec2(min(range.x, r.x), max(range.y, r.y));
            }
        }
        isActive = range.y >= params.iso && range.x < params.iso;
    }

    uint total;
    uint offset = workgroupExclusiveAdd(isActive ? 1u : 0u, total);
    if (gl_LocalInvocationIndex == 0u)
        workgroupBase = total > 0u ? atomicAdd(activeCount, total) : 0u;
    barrier();
    uint slot = workgroupBase + offset;
    bool listed = isActive && slot < params.activeCapacity;
    if (listed)
        activeBlocks[slot] = blockIndex;
    if (WELD && blockIndex < blockCount)
        blockSlot[blockIndex] = listed ? slot : kNoSlot;
}
