#version 460
// The single-pass scan with its tile states in 32-bit words: every device.
#extension GL_GOOGLE_include_directive : require
#include "scan_single_pass.glsl"
