#version 460
#extension GL_GOOGLE_include_directive : require
// Transforms one vertex of a GpuMesh (gpu_mesh.h: position, normal, 24 bytes).
#include "mesh_draw_params.glsl"

layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;

layout(location = 0) out vec3 worldPosition;
layout(location = 1) out vec3 worldNormal;

void main()
{
    worldPosition = position;
    worldNormal = normal;
    gl_Position = params.viewProjection * vec4(position, 1.0);
}
