#version 450
#extension GL_GOOGLE_include_directive : require
// A box from gl_VertexIndex alone (36 vertices: 6 faces of 2 triangles), so
// the host scene needs no vertex buffer.
#include "scene_push.glsl"

layout(location = 0) out vec3 outNormal;

const vec3 kFaceNormals[6] = vec3[](vec3(1, 0, 0), vec3(-1, 0, 0), vec3(0, 1, 0),
                                    vec3(0, -1, 0), vec3(0, 0, 1), vec3(0, 0, -1));
const vec2 kQuadCorners[6] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(1, 1),
                                    vec2(-1, -1), vec2(1, 1), vec2(-1, 1));

void main()
{
    vec3 normal = kFaceNormals[gl_VertexIndex / 6];
    vec2 corner = kQuadCorners[gl_VertexIndex % 6];
    vec3 u = abs(normal.x) > 0.5 ? vec3(0, 1, 0) : vec3(1, 0, 0);
    vec3 v = cross(normal, u);
    vec3 unitBox = normal + u * corner.x + v * corner.y;
    vec3 world = scene.center.xyz + unitBox * scene.halfSize.xyz;
    outNormal = normal;
    gl_Position = scene.viewProjection * vec4(world, 1.0);
}
