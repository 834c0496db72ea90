#version 460
// Unwelded triangles of the HistoPyramid method, each writing its own three
// vertices (triangles.glsl).
#extension GL_GOOGLE_include_directive : require

#define TRIANGLE_SOUP
#include "triangles.glsl"
