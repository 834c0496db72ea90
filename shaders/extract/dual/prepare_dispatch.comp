#version 460
// Dual Marching Cubes, after the classification: the active cell list's
// length into the indirect dispatch of the passes that read it (cells.comp,
// quads.comp: one invocation per entry), folded into 2D past the device's
// workgroup limit along x; a list that could not hold every cell raises the
// mesh's overflow flag (the extractor grows it and the extraction is redone).
#extension GL_GOOGLE_include_directive : require

layout(constant_id = 0) const uint TARGET_GROUP_SIZE = 64; // the reading passes' workgroup
layout(constant_id = 1) const uint MAX_GROUPS_X = 65535u;  // the device's maxComputeWorkGroupCount[0]
layout(local_size_x = 1) in;

#define MESH_COUNTERS_BINDING 0
#define MESH_COUNTERS_ONLY
#define DUAL_COUNTERS_BINDING 1
#include "mesh_output.glsl"
#include "dual_common.glsl"

void main()
{
    uint groups = (min(activeCellCount, grid.activeCellCapacity) + TARGET_GROUP_SIZE - 1u) / TARGET_GROUP_SIZE;
    cellsDispatchX = min(groups, MAX_GROUPS_X);
    cellsDispatchY = (groups + MAX_GROUPS_X - 1u) / MAX_GROUPS_X;
    cellsDispatchZ = 1u;
    if (activeCellCount > grid.activeCellCapacity)
        meshOverflow = 1u;
}
