#version 460
// Writes a known pattern into a volume image through its storage view, so a
// test can read it back through the sampled view: the image is usable both
// ways (in-place rotation and other passes write volumes).
layout(local_size_x = 4, local_size_y = 4, local_size_z = 4) in;

// No format qualifier: one shader for every volume format
// (shaderStorageImageWriteWithoutFormat).
layout(set = 0, binding = 0) uniform writeonly image3D volumeImage;
layout(push_constant) uniform Parameters {
    uvec4 dims;
    float valueScale;
} parameters;

void main()
{
    uvec3 p = gl_GlobalInvocationID;
    if (any(greaterThanEqual(p, parameters.dims.xyz)))
        return;
    float value = float(p.x + 2u * p.y + 3u * p.z);
    imageStore(volumeImage, ivec3(p), vec4(value / parameters.valueScale));
}
