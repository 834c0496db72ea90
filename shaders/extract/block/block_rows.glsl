// The triangle pass by rows (generate_rows.comp): a block's samples and
// those of the one-voxel overlap on its upper faces (its "box", CACHE_X ×
// CACHE_Y × CACHE_Z) held in shared memory as x-rows of inside bits and
// crossed-edge bits, and the number of the vertex on any grid edge its cells
// touch. Several blocks share a workgroup, TEAMS of them, each with
// ROW_LANES invocations, one per own x-row (rowOfTask; as in count_vertices): an
// invocation handles a whole row with bit arithmetic where an invocation per
// cell left most of them idle, so a multiprocessor holds more blocks in
// flight (docs/BENCHMARKS.md).
//
// Each grid edge belongs to the voxel at its lower end (its "distinct edge" in
// the paper's section 4.3.1), and so to that voxel's block. Welding across
// blocks: a block's cells also use edges of its upper neighbours, and must
// know where those neighbours put them. A block orders its edges in groups:
// edges lying in two of its lower faces (3 lines), then in exactly one (3
// faces), then the rest (interior). A lower neighbour only ever needs edges
// that lie in the planes they share, and every group it needs lies wholly in
// its own box of samples, so it can count ranks within the group itself; it
// only needs where the group starts, from the first vertex and group sizes
// the vertex-count pass stores per listed block. Nothing per voxel is stored
// in device memory.
//
// The includer enables the 8-bit arithmetic types.

#include "block_edge_groups.glsl"

// Aliases, not constants: a second name for a specialization constant would
// hide its own from the engine's reflection.
#define TEAMS COUNT_BLOCKS_PER_GROUP
#define ROW_LANES COUNT_ROW_LANES
const uint CACHE_X = BLOCK_X + 1u, CACHE_Y = BLOCK_Y + 1u, CACHE_Z = BLOCK_Z + 1u;
const uint ROW_COUNT = CACHE_Y * CACHE_Z; // rows (y, z) of the box

// Per row, bit x for x < BLOCK_X: the sample is inside; the edge along each
// axis leaving it is crossed (crossedAt, three a row). The overlap column
// x = BLOCK_X lies apart (rowEnd bit 0: inside; crossedEnd bit a: its edge
// along axis a = 1, 2 is crossed), so that rows 32 wide fit a word.
// Rows of blocks up to 8 wide are held in bytes, wider ones in words:
// shared memory per workgroup sets how many blocks a multiprocessor holds.
const bool BYTE_ROWS = BLOCK_X <= 8u;
shared uint8_t insideRowBytes[BYTE_ROWS ? TEAMS * ROW_COUNT : 1u];
shared uint insideRowWords[BYTE_ROWS ? 1u : TEAMS * ROW_COUNT];
shared uint8_t rowEnd[TEAMS * ROW_COUNT];
shared uint8_t crossedRowBytes[BYTE_ROWS ? 3u * TEAMS * ROW_COUNT : 1u];
shared uint crossedRowWords[BYTE_ROWS ? 1u : 3u * TEAMS * ROW_COUNT];
shared uint8_t crossedEnd[TEAMS * ROW_COUNT];
// Welded: the rank of the row's first interior edge in its block's interior
// group (16 bits where a block's ranks fit). Not welded: the row's first
// vertex (the block's vertices by row, then axis, then x).
const bool SHORT_RANKS = 3u * BLOCK_X * BLOCK_Y * BLOCK_Z <= 0xFFFFu;
const bool SHORT_ROW_FIRST = WELD && SHORT_RANKS;
shared uint16_t rowFirstShorts[SHORT_ROW_FIRST ? TEAMS * ROW_COUNT : 1u];
shared uint rowFirstWords[SHORT_ROW_FIRST ? 1u : TEAMS * ROW_COUNT];

uint insideAt(uint row) { return BYTE_ROWS ? uint(insideRowBytes[row]) : insideRowWords[row]; }
void setInside(uint row, uint bits)
{
    if (BYTE_ROWS)
        insideRowBytes[row] = uint8_t(bits);
    else
        insideRowWords[row] = bits;
}
uint crossedAt(uint row, uint axis) { return BYTE_ROWS ? uint(crossedRowBytes[3u * row + axis]) : crossedRowWords[3u * row + axis]; }
void setCrossed(uint row, uint axis, uint bits)
{
    if (BYTE_ROWS)
        crossedRowBytes[3u * row + axis] = uint8_t(bits);
    else
        crossedRowWords[3u * row + axis] = bits;
}
uint rowFirstAt(uint row) { return SHORT_ROW_FIRST ? uint(rowFirstShorts[row]) : rowFirstWords[row]; }
void setRowFirst(uint row, uint first)
{
    if (SHORT_ROW_FIRST)
        rowFirstShorts[row] = uint16_t(first);
    else
        rowFirstWords[row] = first;
}

uint rowIndex(uint team, uint y, uint z) { return team * ROW_COUNT + y + CACHE_Y * z; }

// Row r of the box (y, z) in the order its invocations take rows: the
// block's own rows (y < BLOCK_Y, z < BLOCK_Z) first, then the overlap's, so
// that with an invocation per own row (block_extractor.cpp) each takes one
// row of cells in the triangle loops and the overlap's rows go to the first.
const uint OWN_ROW_COUNT = BLOCK_Y * BLOCK_Z;
uvec2 rowOfTask(uint r)
{
    if (r < OWN_ROW_COUNT)
        return uvec2(r % BLOCK_Y, r / BLOCK_Y);
    r -= OWN_ROW_COUNT;
    return r < BLOCK_Z ? uvec2(BLOCK_Y, r) : uvec2(r - BLOCK_Z, BLOCK_Z);
}

uint lowBits(int n) { return n <= 0 ? 0u : n >= 32 ? 0xFFFFFFFFu : (1u << uint(n)) - 1u; }

// Bits x of a row for the sample at x + 1 (the overlap's for x = BLOCK_X - 1).
uint nextBits(uint m, uint end) { return (m >> 1) | (end << (BLOCK_X - 1u)); }

// One bit per edge of every line and face group of this block and of the
// upper neighbours whose groups lie in the box, so a rank within a group is
// a few popcounts: this block's 6 groups, the face neighbours' (+x, +y, +z)
// face and two lines each, the edge neighbours' one line each (27 slots).
const uint AREA_XY = BLOCK_X * BLOCK_Y, AREA_XZ = BLOCK_X * BLOCK_Z, AREA_YZ = BLOCK_Y * BLOCK_Z;
const uint AREA_MAX = AREA_XY > AREA_XZ ? (AREA_XY > AREA_YZ ? AREA_XY : AREA_YZ) : (AREA_XZ > AREA_YZ ? AREA_XZ : AREA_YZ);
const uint MASK_WORDS = (2u * AREA_MAX + 31u) / 32u;
const uint TEAM_MASK_WORDS = 27u * MASK_WORDS;
shared uint groupMask[TEAMS * TEAM_MASK_WORDS];

uint maskBase(uint team, uint neighbour, uint group)
{
    if (neighbour == 0u)
        return team * TEAM_MASK_WORDS + group * MASK_WORDS;
    // The lines in the planes this block shares with the neighbour: those
    // whose names hold each of its offset axes (XY, XZ, YZ = groups 0, 1, 2).
    uint lines = 7u;
    if ((neighbour & 1u) != 0u)
        lines &= 3u;
    if ((neighbour & 2u) != 0u)
        lines &= 5u;
    if ((neighbour & 4u) != 0u)
        lines &= 6u;
    uint index = group >= GROUP_X ? 2u : uint(bitCount(lines & ((1u << group) - 1u)));
    return team * TEAM_MASK_WORDS + (6u + 3u * (neighbour - 1u) + index) * MASK_WORDS;
}

// Loads the inside bits of the team's block samples [origin, origin + block]
// by rows and clears its group masks; a barrier must follow before either is
// read. The samples themselves are not kept: shared memory per workgroup
// sets how many blocks a multiprocessor holds, and the few vertices read
// theirs again.
void loadBlockRows(uint team, uint lane, ivec3 origin)
{
    for (uint i = lane; WELD && i < TEAM_MASK_WORDS; i += ROW_LANES)
        groupMask[team * TEAM_MASK_WORDS + i] = 0u;
    for (uint r = lane; r < ROW_COUNT; r += ROW_LANES) {
        uint y = r % CACHE_Y, z = r / CACHE_Y;
        ivec3 p = origin + ivec3(0, y, z);
        bool rowInVolume = p.y < params.dims.y && p.z < params.dims.z;
        uint bits = 0u, end = 0u;
        for (uint x = 0u; x < CACHE_X; ++x) {
            // Clamped, so that every load is issued at once; what lies past
            // the volume is masked out here and in the crossed edges.
            float value = fieldAt(min(p + ivec3(x, 0, 0), params.dims - 1));
            uint inside = rowInVolume && p.x + int(x) < params.dims.x && isInside(value) ? 1u : 0u;
            if (x < BLOCK_X)
                bits |= inside << x;
            else
                end = inside;
        }
        setInside(rowIndex(team, y, z), bits);
        rowEnd[rowIndex(team, y, z)] = uint8_t(end);
    }
}

// Own voxels (x < BLOCK_X) of the block's rows in the volume, and those whose
// x-edge (and cell) has both ends in it.
uint voxelsInVolume(ivec3 origin) { return lowBits(min(params.dims.x - origin.x, int(BLOCK_X))); }
uint edgesInVolume(ivec3 origin) { return lowBits(min(params.dims.x - 1 - origin.x, int(BLOCK_X))); }

// After loadBlockRows and a barrier: the crossed edges leaving the samples of
// row (y, z) that the block's cells touch (x-edges of every row, y- and
// z-edges of rows with a next row in the box), into the crossed rows and
// crossedEnd; returns them (x, y, z masks) and the end bits in .w.
uvec4 markRow(uint team, ivec3 origin, uint y, uint z)
{
    uint row = rowIndex(team, y, z);
    ivec3 p = origin + ivec3(0, y, z);
    uvec4 crossed = uvec4(0u);
    if (p.y < params.dims.y && p.z < params.dims.z) {
        uint m = insideAt(row), end = uint(rowEnd[row]);
        bool endInVolume = params.dims.x - origin.x > int(BLOCK_X);
        uint voxels = voxelsInVolume(origin);
        crossed.x = (m ^ nextBits(m, end)) & edgesInVolume(origin);
        if (y + 1u < CACHE_Y && p.y + 1 < params.dims.y) {
            crossed.y = (m ^ insideAt(row + 1u)) & voxels;
            crossed.w |= endInVolume ? (end ^ uint(rowEnd[row + 1u])) << 1 : 0u;
        }
        if (z + 1u < CACHE_Z && p.z + 1 < params.dims.z) {
            crossed.z = (m ^ insideAt(row + CACHE_Y)) & voxels;
            crossed.w |= endInVolume ? (end ^ uint(rowEnd[row + CACHE_Y])) << 2 : 0u;
        }
    }
    setCrossed(row, 0u, crossed.x);
    setCrossed(row, 1u, crossed.y);
    setCrossed(row, 2u, crossed.z);
    crossedEnd[row] = uint8_t(crossed.w);
    return crossed;
}

// Own row (y, z) (y < BLOCK_Y, z < BLOCK_Z): its edges along `axis` that
// lie in no lower face of the block (edgeGroup's GROUP_INTERIOR), by x.
uint interiorMask(uint axis, uint y, uint z)
{
    if (axis == 0u)
        return y > 0u && z > 0u ? 0xFFFFFFFFu : 0u;
    return (axis == 1u ? z : y) > 0u ? 0xFFFFFFFEu : 0u;
}

bool ownRow(uint y, uint z) { return y < BLOCK_Y && z < BLOCK_Z; }

// Welded: sets the group-mask bit of the crossed edge along `axis` leaving
// box sample c, which lies in a line or face group of this block or of the
// upper neighbour that owns it.
void markGroupEdge(uint team, uvec3 c, uint axis)
{
    uvec3 upper = uvec3(greaterThanEqual(c, blockSize()));
    uvec3 l = c - upper * blockSize();
    uint neighbour = upper.x + 2u * upper.y + 4u * upper.z;
    uint group = edgeGroup(l, axis);
    uint position = positionInGroup(l, axis, group);
    atomicOr(groupMask[maskBase(team, neighbour, group) + position / 32u], 1u << (position % 32u));
}

// Welded: marks the row's crossed edges along `axis` (bits x < BLOCK_X;
// `end`: the overlap column's) that lie in line and face groups; returns how
// many of them are interior. Called per axis with the mask itself: an index
// into a vector in a loop put the vector in local memory.
uint markAxisGroups(uint team, uint y, uint z, uint axis, uint bits, bool end)
{
    uint inside = ownRow(y, z) ? bits & interiorMask(axis, y, z) : 0u;
    for (uint rest = bits & ~inside; rest != 0u; rest &= rest - 1u)
        markGroupEdge(team, uvec3(findLSB(rest), y, z), axis);
    if (end)
        markGroupEdge(team, uvec3(BLOCK_X, y, z), axis);
    return bitCount(inside);
}

// The crossed edges of group `group` (not the interior) of upper neighbour
// `neighbour` (0: this block) that come before edge (l, axis) in its order.
uint rankInGroup(uint team, uint neighbour, uvec3 l, uint axis, uint group)
{
    uint position = positionInGroup(l, axis, group);
    uint base = maskBase(team, neighbour, group);
    uint rank = 0u;
    for (uint w = 0u; w < position / 32u; ++w)
        rank += bitCount(groupMask[base + w]);
    return rank + bitCount(groupMask[base + position / 32u] & ((1u << (position % 32u)) - 1u));
}

// Not welded: the rank of crossed edge (c, axis) among its row's, ordered by
// axis, then x (the overlap column last).
uint rankInRow(uint team, uvec3 c, uint axis)
{
    uint row = rowIndex(team, c.y, c.z);
    uint end = uint(crossedEnd[row]);
    uint rank = 0u;
    for (uint a = 0u; a < axis; ++a)
        rank += bitCount(crossedAt(row, a)) + ((end >> a) & 1u);
    uint bits = crossedAt(row, axis);
    return rank + bitCount(c.x < BLOCK_X ? bits & lowBits(int(c.x)) : bits);
}

// The inside bits of the four rows around own row (y, z)'s cells, at the
// cells' lower (.xy: rows (y, z), (y + 1, z); .zw: (y, z + 1), (y + 1, z + 1))
// and upper x corners.
void cellRows(uint team, uint y, uint z, out uvec4 low, out uvec4 high)
{
    uint row = rowIndex(team, y, z);
    uvec4 rows = uvec4(row, row + 1u, row + CACHE_Y, row + CACHE_Y + 1u);
    for (uint k = 0u; k < 4u; ++k) {
        low[k] = insideAt(rows[k]);
        high[k] = nextBits(low[k], uint(rowEnd[rows[k]]));
    }
}

// The cells of own row (y, z) that exist (all corners in the volume) and
// have corners on both sides of the isovalue.
uint activeCells(ivec3 origin, uint y, uint z, uvec4 low, uvec4 high)
{
    ivec3 p = origin + ivec3(0, y, z);
    if (p.y + 1 >= params.dims.y || p.z + 1 >= params.dims.z)
        return 0u;
    uint anyInside = low.x | low.y | low.z | low.w | high.x | high.y | high.z | high.w;
    uint allInside = low.x & low.y & low.z & low.w & high.x & high.y & high.z & high.w;
    return anyInside & ~allInside & edgesInVolume(origin);
}

// The Marching Cubes case of cell x of the row (corner c at (c & 1, (c >> 1) & 1, (c >> 2) & 1)).
uint cellCase(uint x, uvec4 low, uvec4 high)
{
    uvec4 l = (low >> x) & 1u, h = (high >> x) & 1u;
    return l.x | (h.x << 1) | (l.y << 2) | (h.y << 3) | (l.z << 4) | (h.z << 5) | (l.w << 6) | (h.w << 7);
}
