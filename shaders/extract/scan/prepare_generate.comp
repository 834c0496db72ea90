#version 460
// Scan method, between the list pass and generate: one invocation turns the
// slab's occupied-point count into generate's indirect dispatch, and its
// vertex and triangle totals into the slab's place in the mesh (the counts
// of the slabs before it), without a read-back. A list too short for the
// slab raises the mesh's overflow flag and keeps the largest count asked for,
// so the driver grows it and redoes the extraction.
#extension GL_GOOGLE_include_directive : require

layout(local_size_x = 1) in;

#define MESH_COUNTERS_ONLY // the counts only
#define MESH_COUNTERS_BINDING 4
#include "mesh_output.glsl"

layout(set = 0, binding = 0, std430) readonly buffer SlabTotals { uvec2 slabTotals[3]; }; // uint64 vertices, triangles, occupied
layout(set = 0, binding = 1, std430) writeonly buffer SlabBase { uvec2 slabBase; };      // first vertex, first triangle
layout(set = 0, binding = 2, std430) writeonly buffer DispatchArgs { uint dispatchArgs[3]; };
layout(set = 0, binding = 3, std430) buffer ListNeeded { uint listNeeded; }; // the most entries a slab needed
layout(push_constant) uniform Push {
    uint workgroupSize; // generate's
    uint maxGroupsX;    // the device's maxComputeWorkGroupCount[0]
    uint listCapacity;
    uint firstSlab;     // 1: the first slab of this extraction
} p;

// count + total, saturated at 2^32 - 1 so an impossible mesh overflows
// loudly (the driver then fails to allocate it, with the numbers).
uint addSaturated(uint count, uvec2 total)
{
    uint carry;
    uint sum = uaddCarry(count, total.x, carry);
    return total.y != 0u || carry != 0u ? 0xFFFFFFFFu : sum;
}

void main()
{
    uint occupied = slabTotals[2].x; // at most the slab's points, < 2^32
    uint groups = (min(occupied, p.listCapacity) + p.workgroupSize - 1u) / p.workgroupSize;
    uint x = min(groups, p.maxGroupsX);
    dispatchArgs[0] = x;
    dispatchArgs[1] = x == 0u ? 1u : (groups + x - 1u) / x;
    dispatchArgs[2] = 1u;
    slabBase = uvec2(meshVertexCount, meshFaceCount);
    meshVertexCount = addSaturated(meshVertexCount, slabTotals[0]);
    meshFaceCount = addSaturated(meshFaceCount, slabTotals[1]);
    listNeeded = p.firstSlab != 0u ? occupied : max(listNeeded, occupied);
    if (occupied > p.listCapacity)
        meshOverflow = 1u;
}
