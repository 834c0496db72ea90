#version 460
#extension GL_GOOGLE_include_directive : require
// The raster pass's fragments: headlight shading (common/headlight_shading.glsl).
#include "mesh_draw_params.glsl"
#include "headlight_shading.glsl"

layout(location = 0) in vec3 worldPosition;
layout(location = 1) in vec3 worldNormal;

layout(location = 0) out vec4 color;

void main()
{
    vec3 toEye = normalize(params.eye.xyz - worldPosition * params.eye.w);
    color = vec4(shadeHeadlight(worldNormal, toEye, params.frontColor.rgb, params.backColor.rgb), 1.0);
}
