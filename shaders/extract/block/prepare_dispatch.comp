#version 460
// Turns the list's length into the indirect dispatches of the vertex-count
// pass and the row triangle pass (COUNT_BLOCKS_PER_GROUP listed blocks a
// workgroup) and the cell triangle pass (one workgroup per listed block),
// folded into 2D where a count passes the device's workgroup limit along x,
// and raises the mesh's overflow flag when the list could not hold every
// active block. Of the two triangle passes it dispatches one, by the list's
// length (ROWS_FROM_LISTED); the other's dispatch is empty.
#extension GL_GOOGLE_include_directive : require

// The bindings this pass writes (block_common.glsl).
#define STATE_ACCESS
#define MESH_COUNTERS_WRITTEN
#include "block_common.glsl"

layout(local_size_x = 1) in;

// The device's maxComputeWorkGroupCount[0] (prepare_dispatch.cpp).
layout(constant_id = 19) const uint MAX_GROUPS_X = 65535u;
// From this many listed blocks on, the row triangle pass, else the cell pass
// (block_extractor.cpp says why): rows hold more blocks in flight, each for
// longer, which a list shorter than the GPU holds does not use.
layout(constant_id = 24) const uint ROWS_FROM_LISTED = 0xFFFFFFFFu;

uvec3 dispatchFor(uint workgroups)
{
    return uvec3(min(workgroups, MAX_GROUPS_X), (workgroups + MAX_GROUPS_X - 1u) / MAX_GROUPS_X, 1u);
}

void main()
{
    uint listed = min(activeCount, params.activeCapacity);
    bool rows = listed >= ROWS_FROM_LISTED;
    uvec3 d = dispatchFor(rows ? 0u : listed);
    dispatchX = d.x;
    dispatchY = d.y;
    dispatchZ = d.z;
    uvec3 c = dispatchFor((listed + COUNT_BLOCKS_PER_GROUP - 1u) / COUNT_BLOCKS_PER_GROUP);
    countDispatchX = c.x;
    countDispatchY = c.y;
    countDispatchZ = c.z;
    d = rows ? c : uvec3(0u, 1u, 1u);
    rowDispatchX = d.x;
    rowDispatchY = d.y;
    rowDispatchZ = d.z;
    if (activeCount > params.activeCapacity)
        meshOverflow = 1u;
}
