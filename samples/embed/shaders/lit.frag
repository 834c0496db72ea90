#version 450
#extension GL_GOOGLE_include_directive : require
// Lambert with an ambient floor, so faces turned away stay readable.
#include "scene_push.glsl"

layout(location = 0) in vec3 inNormal;
layout(location = 0) out vec4 outColor;

void main()
{
    float diffuse = max(dot(normalize(inNormal), scene.toLight.xyz), 0.0);
    outColor = vec4(scene.color.rgb * (0.3 + 0.7 * diffuse), 1.0);
}
