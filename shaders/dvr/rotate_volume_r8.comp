#version 460
// The in-place quarter turn (rotate_volume.glsl) of a volume of 8-bit texels.
#extension GL_GOOGLE_include_directive : require
#define RAW_FORMAT r8ui
#include "rotate_volume.glsl"
