// A streamed slab's planes shared with the slab before, copied from the
// previous slab's image (slab_overlap_copy.cpp): one invocation a texel,
// moved as an unsigned integer of its size (the images' raw views), bit for
// bit. Included by slab_overlap_copy_r8/r16/r32.comp, which define
// RAW_FORMAT: the raw view format (r8ui, r16ui, r32ui).

layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 0) const uint GROUP_X = 64;
layout(constant_id = 1) const uint GROUP_Y = 4;

layout(push_constant) uniform Parameters {
    uint width;     // texels a row
    uint height;    // rows a plane
    uint fromPlane; // the source's plane copied to target plane 0
} params;

layout(set = 0, binding = 0, RAW_FORMAT) uniform readonly uimage3D source;
layout(set = 0, binding = 1, RAW_FORMAT) uniform writeonly uimage3D target;

void main()
{
    uvec3 p = gl_GlobalInvocationID; // z: the target plane (one workgroup deep)
    if (p.x >= params.width || p.y >= params.height)
        return;
    uvec4 texel = imageLoad(source, ivec3(p.x, p.y, p.z + params.fromPlane));
    imageStore(target, ivec3(p), texel);
}
