// The volume turned a quarter about y in place (Algorithm 1 of "Cache-aware,
// in-place rotation method for texture-based volume rendering"): the image's
// xz slices are square (padded at load, GpuVolumeUsage::squareXZMultiple)
// and cut into TILE × TILE tiles, TILE_Y slices deep. A quarter turn moves
// (x, y, z) to (n − 1 − z, y, x), so tile (i, j) goes to (m − 1 − j, i) (m
// tiles a side) and four tiles form one cycle; a workgroup moves one cycle
// through shared memory, reading each tile before it is overwritten. With
// m even, the cycles' first tiles are the quadrant i, j < m / 2. Texels move
// as unsigned integers of their size (the image's raw view), bit for bit.
// Included by rotate_volume_r8/r16/r32.comp, which define RAW_FORMAT: the
// image's raw view format (r8ui, r16ui, r32ui).

layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 0) const uint TILE = 16;
layout(constant_id = 1) const uint TILE_Y = 8;

layout(push_constant) uniform Parameters {
    uint tiles;  // m: tiles along x and along z
    uint height; // the image's y extent
    uint backward; // 1: the inverse turn, (x, y, z) → (z, y, n − 1 − x)
} params;

layout(set = 0, binding = 0, RAW_FORMAT) uniform uimage3D volume;

shared uint tileA[TILE_Y][TILE][TILE]; // [y][z][x] of the tile being moved
shared uint tileB[TILE_Y][TILE][TILE]; // the next tile of the cycle, read before it is overwritten

ivec2 nextTile(ivec2 t)
{
    int last = int(params.tiles) - 1;
    return params.backward != 0u ? ivec2(t.y, last - t.x) : ivec2(last - t.y, t.x);
}

void loadTile(ivec2 t, uint y, bool intoA)
{
    uint a = gl_LocalInvocationID.x, ly = gl_LocalInvocationID.y;
    if (y >= params.height)
        return;
    for (uint b = 0u; b < TILE; ++b) {
        uint texel = imageLoad(volume, ivec3(t.x * int(TILE) + int(a), int(y), t.y * int(TILE) + int(b))).r;
        if (intoA)
            tileA[ly][b][a] = texel;
        else
            tileB[ly][b][a] = texel;
    }
}

void main()
{
    uint a = gl_LocalInvocationID.x, ly = gl_LocalInvocationID.y;
    uint y = gl_WorkGroupID.z * TILE_Y + ly;
    ivec2 tile = ivec2(gl_WorkGroupID.xy);
    bool inA = true; // which buffer holds the tile being moved
    loadTile(tile, y, true);
    for (int m = 0; m < 4; ++m) {
        ivec2 next = nextTile(tile);
        if (m < 3)
            loadTile(next, y, !inA);
        barrier();
        // The texel at (a', b') of `next` is the one at (b', TILE − 1 − a')
        // of `tile` (x, z), or at (TILE − 1 − b', a') turning back.
        if (y < params.height)
            for (uint b = 0u; b < TILE; ++b) {
                uvec2 from = params.backward != 0u ? uvec2(TILE - 1u - b, a) : uvec2(b, TILE - 1u - a); // x, z
                uint texel = inA ? tileA[ly][from.y][from.x] : tileB[ly][from.y][from.x];
                imageStore(volume, ivec3(next.x * int(TILE) + int(a), int(y), next.y * int(TILE) + int(b)),
                           uvec4(texel));
            }
        barrier();
        inA = !inA;
        tile = next;
    }
}
