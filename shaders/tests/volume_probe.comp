#version 460
// Reads a GPU volume at given points through the sampled image (texel fetch
// and trilinear filtering) and through the raw storage buffer, so a test can
// compare each with the CPU's samples.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) uniform sampler3D volumeImage;
layout(set = 0, binding = 1) readonly buffer VolumeWords { uint volumeWords[]; };
layout(set = 0, binding = 2) readonly buffer Points { vec4 points[]; };   // voxel coordinates
layout(set = 0, binding = 3) writeonly buffer Results { vec4 results[]; }; // fetch, filtered, buffer, 0
layout(push_constant) uniform Parameters {
    uvec4 dims;        // xyz, w = scalar type
    float valueScale;
    uint count;
} parameters;

#include "volume_buffer.glsl"

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= parameters.count)
        return;
    vec3 p = points[i].xyz;
    ivec3 voxel = ivec3(floor(p));
    vec3 dims = vec3(parameters.dims.xyz);
    float fetched = texelFetch(volumeImage, voxel, 0).r * parameters.valueScale;
    // Texel centres sit at (i + 0.5) / n in normalized coordinates.
    float filtered = textureLod(volumeImage, (p + 0.5) / dims, 0.0).r * parameters.valueScale;
    uint index = (uint(voxel.z) * parameters.dims.y + uint(voxel.y)) * parameters.dims.x + uint(voxel.x);
    float stored = volumeSampleAt(index, parameters.dims.w);
    results[i] = vec4(fetched, filtered, stored, 0.0);
}
