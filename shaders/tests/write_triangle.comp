#version 460
// Test: writes one triangle in the x-z plane facing -y, and its draw
// arguments, in the GpuMesh form an extractor produces (mesh_output.glsl).
#extension GL_GOOGLE_include_directive : require
#define MESH_VERTICES_BINDING 0
#define MESH_INDICES_BINDING 1
#define MESH_COUNTERS_BINDING 2
#include "mesh_output.glsl"

layout(local_size_x = 1) in;

void main()
{
    vec3 normal = vec3(0.0, -1.0, 0.0);
    writeMeshVertex(0u, vec3(-0.5, 0.0, -0.5), normal);
    writeMeshVertex(1u, vec3(0.5, 0.0, -0.5), normal);
    writeMeshVertex(2u, vec3(0.0, 0.0, 0.5), normal);
    writeMeshTriangle(0u, 0u, 1u, 2u);
    meshVertexCount = 3u;
    meshFaceCount = 1u;
    drawIndexCount = 3u;
    drawInstanceCount = 1u;
    drawFirstIndex = 0u;
    drawVertexOffset = 0;
    drawFirstInstance = 0u;
}
