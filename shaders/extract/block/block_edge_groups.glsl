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

// Position of edge (l, axis) in its group's order: along the line; on a
// face, by the block's x-rows of samples (y, z), then axis, then x, so that
// the edges of one row along one axis are consecutive (the triangle pass
// numbers them from one code per row and axis, block_edges.glsl).
uint positionInGroup(uvec3 l, uint axis, uint group)
{
    if (group == GROUP_XY)
        return l.z; // the XY line runs along z, XZ along y, YZ along x
    if (group == GROUP_XZ)
        return l.y;
    if (group == GROUP_YZ)
        return l.x;
    if (group == GROUP_X) // one or two edges a row, at x = 0
        return 2u * (l.y + BLOCK_Y * l.z) + (axis == 2u ? 1u : 0u);
    if (group == GROUP_Y)
        return (2u * l.z + (axis == 2u ? 1u : 0u)) * BLOCK_X + l.x;
    return (2u * l.y + (axis == 1u ? 1u : 0u)) * BLOCK_X + l.x; // GROUP_Z
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
