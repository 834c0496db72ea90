#version 460
#extension GL_GOOGLE_include_directive : require
// Blinn-Phong with a headlight (the light sits at the eye), lit on both
// sides: an isosurface is open at the volume's boundary, so its back faces
// are seen and must not turn black. The side is chosen by the normal against
// the view direction, not by winding, since extractors do not agree on one.
#include "mesh_draw_params.glsl"

layout(location = 0) in vec3 worldPosition;
layout(location = 1) in vec3 worldNormal;

layout(location = 0) out vec4 color;

void main()
{
    vec3 toEye = normalize(params.eye.xyz - worldPosition * params.eye.w);
    vec3 n = worldNormal;
    float len = length(n);
    n = len > 0.0 ? n / len : toEye; // a degenerate normal faces the viewer
    bool back = dot(n, toEye) < 0.0;
    if (back)
        n = -n;
    vec3 base = back ? params.backColor.rgb : params.frontColor.rgb;
    // Headlight: light direction = view direction, so the half vector is toEye too.
    float diffuse = max(dot(n, toEye), 0.0);
    float specular = pow(diffuse, 48.0);
    color = vec4(base * (0.15 + 0.85 * diffuse) + vec3(0.25 * specular), 1.0);
}
