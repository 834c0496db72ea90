#version 460
// Empty-space skipping for the isosurface raycasters: which sides of the
// isovalue each brick's samples can be on (raycast_common.glsl,
// canSkipBrick). The ranges come from the block method's value-range pass
// (shaders/extract/block/min_max*.comp) run on bricks; a brick's class
// unions its range with its 26 neighbours', so it covers every voxel a
// trilinear sample in its cells can touch, with a voxel to spare. Runs once
// per isovalue; one invocation per 4 bricks (one output word).
layout(local_size_x = 64) in;

layout(push_constant) uniform Parameters {
    uvec3 brickCounts;
    float iso;
} params;

layout(set = 0, binding = 0, std430) readonly buffer Ranges { uint brickRanges[]; }; // two halves, rounded outward
layout(set = 0, binding = 1, std430) writeonly buffer Classes { uint brickClassWords[]; };

const uint kMayBeOutside = 1u, kMayBeInside = 2u;

uint classOf(uint index)
{
    uvec3 counts = params.brickCounts;
    ivec3 b = ivec3(index % counts.x, (index / counts.x) % counts.y, index / (counts.x * counts.y));
    vec2 range = vec2(1.0 / 0.0, -1.0 / 0.0);
    for (int z = -1; z <= 1; ++z)
        for (int y = -1; y <= 1; ++y)
            for (int x = -1; x <= 1; ++x) {
                ivec3 n = b + ivec3(x, y, z);
                if (all(greaterThanEqual(n, ivec3(0))) && all(lessThan(n, ivec3(counts)))) {
                    vec2 r = unpackHalf2x16(brickRanges[n.x + counts.x * (n.y + counts.y * n.z)]);
                    range = vec2(min(range.x, r.x), max(range.y, r.y));
                }
            }
    // Non-finite samples made the low end -inf (outside), as the extractors count them.
    return (range.x < params.iso ? kMayBeOutside : 0u) | (range.y >= params.iso ? kMayBeInside : 0u);
}

void main()
{
    uint word = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    uint count = params.brickCounts.x * params.brickCounts.y * params.brickCounts.z;
    if (word * 4u >= count)
        return;
    uint packed = 0u;
    for (uint i = 0u; i < 4u; ++i) {
        uint index = word * 4u + i;
        if (index < count)
            packed |= classOf(index) << (8u * i);
    }
    brickClassWords[word] = packed;
}
