#version 460
// The draw of a quad mesh's triangles (draw_quads.vert): six vertices per
// written quad, from the mesh's counters, on the GPU (no read-back).
#extension GL_GOOGLE_include_directive : require

layout(local_size_x = 1) in;

#define MESH_COUNTERS_ONLY
#define MESH_COUNTERS_READ_ONLY
#define MESH_COUNTERS_BINDING 0
#include "mesh_output.glsl"

// A VkDrawIndirectCommand.
layout(set = 0, binding = 1, std430) writeonly buffer DrawArgs { uint vertexCount, instanceCount, firstVertex, firstInstance; };

void main()
{
    vertexCount = 6u * min(meshFaceCount, meshFaceCapacity);
    instanceCount = 1u;
    firstVertex = 0u;
    firstInstance = 0u;
}
