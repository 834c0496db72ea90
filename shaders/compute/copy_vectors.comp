#version 460
// A buffer copy through a compute shader: the yardstick `isoscope bench-scan`
// sets beside the scan, since the scan's passes are compute shaders too
// (vkCmdCopyBuffer moved only 0.2 TB/s on the H100's driver at 515 MiB, and
// says nothing of what a shader can move).
//
// Shaped as the scan's element passes are: each invocation loads VECTORS
// 16-byte vectors (consecutive invocations consecutive vectors, so every
// load is coalesced), all before storing any, so they are in flight
// together. On the H100 this moved the same bytes per second as the earlier
// grid-stride loop of one vector an iteration: 0.96 of 3.09 TB/s for 515 MiB
// buffers, about 0.5 from 1 GiB buffers up, wherever the output lies
// (docs/BENCHMARKS.md, 2026-11-24).
layout(constant_id = 0) const uint SUBGROUP_SIZE = 32;
layout(constant_id = 1) const uint WORKGROUP_SIZE = 256;
layout(constant_id = 2) const uint VECTORS = 4;
layout(local_size_x_id = 1) in;

layout(set = 0, binding = 0, std430) readonly buffer Source { uvec4 source[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Destination { uvec4 destination[]; };
layout(push_constant) uniform Push {
    uint vectors; // in this segment
} p;

void main()
{
    // Workgroups are dispatched in 2D: one dimension holds at most 65535 of them.
    uint group = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
    uint first = group * WORKGROUP_SIZE * VECTORS + gl_LocalInvocationIndex;
    uvec4 values[VECTORS];
    for (uint k = 0u; k < VECTORS; ++k) {
        uint i = first + k * WORKGROUP_SIZE;
        values[k] = i < p.vectors ? source[i] : uvec4(0u);
    }
    for (uint k = 0u; k < VECTORS; ++k) {
        uint i = first + k * WORKGROUP_SIZE;
        if (i < p.vectors)
            destination[i] = values[k];
    }
}
