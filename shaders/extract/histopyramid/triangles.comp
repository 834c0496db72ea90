#version 460
// Welded triangles of the HistoPyramid method (triangles.glsl).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#include "triangles.glsl"
