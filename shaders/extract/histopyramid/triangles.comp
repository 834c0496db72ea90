#version 460
// Welded triangles of the HistoPyramid method (triangles.glsl).
#extension GL_GOOGLE_include_directive : require

#include "triangles.glsl"
