#version 460
// A buffer copy through a compute shader, 16 bytes an invocation, each
// workgroup striding over the whole range: the yardstick `isoscope
// bench-scan` sets beside the scan, since the scan's passes are compute
// shaders too (vkCmdCopyBuffer moved only 0.2 TB/s on the H100's driver at
// 515 MiB, and says nothing of what a shader can move).
layout(constant_id = 0) const uint SUBGROUP_SIZE = 32;
layout(constant_id = 1) const uint WORKGROUP_SIZE = 256;
layout(local_size_x_id = 1) in;

layout(set = 0, binding = 0, std430) readonly buffer Source { uvec4 source[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Destination { uvec4 destination[]; };
layout(push_constant) uniform Push {
    uint vectors; // in this segment
} p;

void main()
{
    uint stride = gl_NumWorkGroups.x * WORKGROUP_SIZE;
    for (uint i = gl_GlobalInvocationID.x; i < p.vectors; i += stride)
        destination[i] = source[i];
}
