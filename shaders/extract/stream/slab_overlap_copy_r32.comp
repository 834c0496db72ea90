#version 460
// A slab's shared planes copied (slab_overlap_copy.glsl) between images of 32-bit texels.
#extension GL_GOOGLE_include_directive : require
#define RAW_FORMAT r32ui
#include "slab_overlap_copy.glsl"
