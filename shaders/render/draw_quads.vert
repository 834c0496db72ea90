#version 460
#extension GL_GOOGLE_include_directive : require
// Transforms one corner of a quad mesh's triangles (gpu_mesh.h, faceSize 4):
// six invocations per quad, its triangles (a, b, c) and (a, c, d), as
// mesh_check.h splits them; the quad's indices and vertices are pulled from
// the mesh's storage buffers, so the quads are drawn as they were written.
#include "mesh_draw_params.glsl"

struct MeshVertex {
    float px, py, pz;
    float nx, ny, nz;
};
layout(set = 0, binding = 0, std430) readonly buffer MeshIndices { uint meshIndices[]; };
layout(set = 0, binding = 1, std430) readonly buffer MeshVertices { MeshVertex meshVertices[]; };

layout(location = 0) out vec3 worldPosition;
layout(location = 1) out vec3 worldNormal;

const uint QUAD_CORNER[6] = uint[6](0u, 1u, 2u, 0u, 2u, 3u);

void main()
{
    uint quad = uint(gl_VertexIndex) / 6u;
    MeshVertex v = meshVertices[meshIndices[4u * quad + QUAD_CORNER[uint(gl_VertexIndex) % 6u]]];
    worldPosition = vec3(v.px, v.py, v.pz);
    worldNormal = vec3(v.nx, v.ny, v.nz);
    gl_Position = params.viewProjection * vec4(worldPosition, 1.0);
}
