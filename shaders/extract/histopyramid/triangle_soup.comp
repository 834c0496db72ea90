#version 460
// Unwelded triangles of the HistoPyramid method, each writing its own three
// vertices (triangles.glsl).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#define TRIANGLE_SOUP
#include "triangles.glsl"
