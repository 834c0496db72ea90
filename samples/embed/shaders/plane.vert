#version 450
#extension GL_GOOGLE_include_directive : require
// The ground: one quad of 6 vertices at z = center.z, facing up.
#include "scene_push.glsl"

layout(location = 0) out vec3 outNormal;

const vec2 kQuadCorners[6] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(1, 1),
                                    vec2(-1, -1), vec2(1, 1), vec2(-1, 1));

void main()
{
    vec2 corner = kQuadCorners[gl_VertexIndex];
    vec3 world = scene.center.xyz + vec3(corner * scene.halfSize.xy, 0.0);
    outNormal = vec3(0, 0, 1);
    gl_Position = scene.viewProjection * vec4(world, 1.0);
}
