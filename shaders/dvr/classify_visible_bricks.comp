#version 460
// Transfer-function skipping for direct volume rendering: whether any sample
// of a brick can be given opacity. A brick's range is unioned with its 26
// neighbours' (as classify_bricks.comp does for the isosurface), so its class
// covers every voxel a trilinear sample in its cells touches, with a voxel to
// spare. The range [a, b] is transparent when the first table entry at or
// after floor(u(a)) with opacity lies past ceil(u(b)): one lookup
// (dvr/transfer_function.h, TransferTable::nextVisible). Runs when the
// transfer function changes; one invocation per 4 bricks (one output word).
layout(local_size_x = 64) in;

layout(push_constant) uniform Parameters {
    uvec3 brickCounts;
    uint tableEntries;
    float tableLo;
    float tableScale;
} params;

layout(set = 0, binding = 0, std430) readonly buffer Ranges { uint brickRanges[]; }; // two halves, rounded outward
layout(set = 0, binding = 1, std430) readonly buffer NextVisible { uint nextVisible[]; };
layout(set = 0, binding = 2, std430) writeonly buffer Classes { uint brickClassWords[]; };

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
    float last = float(params.tableEntries - 1u);
    float lo = floor(clamp((range.x - params.tableLo) * params.tableScale, 0.0, last));
    float hi = ceil(clamp((range.y - params.tableLo) * params.tableScale, 0.0, last));
    // A range that is all NaN stays empty (lo > hi): transparent, as NaN samples are.
    if (!(range.x <= range.y))
        return 0u;
    return nextVisible[uint(lo)] <= uint(hi) ? 1u : 0u;
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
