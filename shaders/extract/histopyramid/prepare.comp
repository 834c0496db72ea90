#version 460
// After the HistoPyramid is built: its top node's sums are the mesh's
// counts. One invocation writes them into the mesh counters and sizes the
// indirect dispatches of the vertex and triangle passes, so nothing waits
// for the CPU.
#extension GL_GOOGLE_include_directive : require

#define VOLUME_BINDING 0
#define LEVELS_BINDING 1
#define PYRAMID_BINDING 2
#define PYRAMID_ACCESS readonly
#define MESH_COUNTERS_ONLY // the counts only: no binding for the vertex and triangle passes to wait on
#define MESH_COUNTERS_BINDING 3
#define DISPATCH_BINDING 4
#define DISPATCH_ACCESS writeonly
#include "histopyramid_common.glsl"
#include "mesh_output.glsl"

layout(local_size_x = 1) in;

layout(constant_id = 0) const uint WORKGROUP_SIZE = 64; // of the vertex and triangle passes
layout(constant_id = 1) const uint WELD = 1;
layout(constant_id = 2) const uint MAX_GROUPS_X = 65535; // the device's maxComputeWorkGroupCount[0]

uvec3 groupsFor(uint count)
{
    uint groups = (count + WORKGROUP_SIZE - 1u) / WORKGROUP_SIZE;
    uint x = min(groups, MAX_GROUPS_X);
    return x == 0u ? uvec3(0u, 1u, 1u) : uvec3(x, (groups + x - 1u) / x, 1u);
}

void main()
{
    uvec2 sums = uvec2(0u);
    for (uint o = 0u; o < 8u; ++o)
        sums += entryCounts(grid.topLevel - 1u, o);
    meshVertexCount = WELD != 0u ? sums.x : 3u * sums.y;
    meshFaceCount = sums.y;
    vertexGroups = groupsFor(WELD != 0u ? sums.x : 0u);
    triangleGroups = groupsFor(sums.y);
    totals = sums;
}
