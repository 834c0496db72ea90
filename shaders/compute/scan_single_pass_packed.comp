#version 460
// The single-pass scan with 64-bit tile states: devices with shaderInt64 and
// shaderBufferInt64Atomics (SinglePassScan picks it).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
#define PACKED_STATE
#include "scan_single_pass.glsl"
