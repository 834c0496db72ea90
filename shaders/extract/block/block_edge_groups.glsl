// How a block orders the grid edges it owns, for welding across blocks
// (block_edges.glsl says why): in groups by the lower faces of the block the
// edge lies in, lines first, then faces, then the interior.

// Edge groups of a block, by the lower faces of the block the edge lies in.
const uint GROUP_XY = 0u, GROUP_XZ = 1u, GROUP_YZ = 2u, GROUP_X = 3u, GROUP_Y = 4u, GROUP_Z = 5u, GROUP_INTERIOR = 6u;
const uint GROUP_COUNT = 7u;

// l: the edge's lower voxel relative to its block's first voxel.
uint edgeGroup(uvec3 l, uint axis)
{
    bool inX = l.x == 0u && axis != 0u;
    bool inY = l.y == 0u && axis != 1u;
    bool inZ = l.z == 0u && axis != 2u;
    if (inX && inY) return GROUP_XY;
    if (inX && inZ) return GROUP_XZ;
    if (inY && inZ) return GROUP_YZ;
    if (inX) return GROUP_X;
    if (inY) return GROUP_Y;
    if (inZ) return GROUP_Z;
    return GROUP_INTERIOR;
}

// Position of edge (l, axis) in its group's order (voxels by index, then
// axis): along the line, or 2 * (index within the face) + (axis == v).
uint positionInGroup(uvec3 l, uint axis, uint group)
{
    if (group <= GROUP_YZ)
        return l[2u - group]; // the XY line runs along z, XZ along y, YZ along x
    uint fixedAxis = group - GROUP_X;
    uint u = fixedAxis == 0u ? 1u : 0u;
    uint v = fixedAxis == 2u ? 1u : 2u;
    return 2u * (l[u] + blockSize()[u] * l[v]) + (axis == v ? 1u : 0u);
}


// The sizes of the groups a lower neighbour borrows from (all but the
// interior) are stored per listed block in bit fields just wide enough for
// each group's largest size, 30 bits for 8x4x4 blocks: one word, where
// 16-bit starts took three. A field never straddles two words.
const uint BORROWED_GROUP_COUNT = 6u;

uint groupMaxSize(uint group)
{
    uint sizes[BORROWED_GROUP_COUNT] = uint[](BLOCK_Z, BLOCK_Y, BLOCK_X, 2u * BLOCK_Y * BLOCK_Z, 2u * BLOCK_X * BLOCK_Z,
                                              2u * BLOCK_X * BLOCK_Y);
    return sizes[group];
}

uint groupFieldBits(uint group) { return uint(findMSB(groupMaxSize(group))) + 1u; }

// The field's first bit within the two words.
uint groupFieldShift(uint group)
{
    uint shift = 0u;
    for (uint g = 0u; g <= group; ++g) {
        uint bits = groupFieldBits(g);
        if (shift < 32u && shift + bits > 32u)
            shift = 32u;
        if (g < group)
            shift += bits;
    }
    return shift;
}

uvec2 packGroupSizes(uint sizes[BORROWED_GROUP_COUNT])
{
    uvec2 packed = uvec2(0u);
    for (uint g = 0u; g < BORROWED_GROUP_COUNT; ++g) {
        uint shift = groupFieldShift(g);
        packed[shift / 32u] |= sizes[g] << (shift % 32u);
    }
    return packed;
}

uint unpackGroupSize(uvec2 packed, uint group)
{
    uint shift = groupFieldShift(group);
    return bitfieldExtract(packed[shift / 32u], int(shift % 32u), int(groupFieldBits(group)));
}
