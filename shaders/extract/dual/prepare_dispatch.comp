#version 460
// Dual Marching Cubes, between passes: a list's length into the indirect
// dispatch of the pass that reads it, one invocation per entry, folded into
// 2D past the device's workgroup limit along x; a list that could not hold
// every entry raises the mesh's overflow flag (the extractor grows it and
// the extraction is redone). LIST 0: the active cells, for cells.comp;
// LIST 1: the stored edges, for quads.comp.
#extension GL_GOOGLE_include_directive : require

layout(constant_id = 0) const uint LIST = 0;
layout(constant_id = 1) const uint TARGET_GROUP_SIZE = 64; // the reading pass's workgroup
layout(constant_id = 2) const uint MAX_GROUPS_X = 65535u;  // the device's maxComputeWorkGroupCount[0]
layout(local_size_x = 1) in;

#define MESH_COUNTERS_BINDING 0
#define MESH_COUNTERS_ONLY
#define DUAL_COUNTERS_BINDING 1
#include "mesh_output.glsl"
#include "dual_common.glsl"

void main()
{
    uint count = LIST == 0u ? activeCellCount : edgesStored;
    uint capacity = LIST == 0u ? grid.activeCellCapacity : grid.edgeListCapacity;
    uint groups = (min(count, capacity) + TARGET_GROUP_SIZE - 1u) / TARGET_GROUP_SIZE;
    uvec3 d = uvec3(min(groups, MAX_GROUPS_X), (groups + MAX_GROUPS_X - 1u) / MAX_GROUPS_X, 1u);
    if (LIST == 0u) {
        cellsDispatchX = d.x;
        cellsDispatchY = d.y;
        cellsDispatchZ = d.z;
    } else {
        quadsDispatchX = d.x;
        quadsDispatchY = d.y;
        quadsDispatchZ = d.z;
    }
    if (count > capacity)
        meshOverflow = 1u;
}
