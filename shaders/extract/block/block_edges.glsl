// A block's samples and crossed edges in shared memory, and the number of the
// vertex on any grid edge its cells touch, for the vertex and triangle passes.
//
// Each grid edge belongs to the voxel at its lower end (its "distinct edge" in
// the paper's section 4.3.1), and so to that voxel's block. Welding across
// blocks: a block's cells also use edges of its upper neighbours, and must
// know where those neighbours put them. A block orders its edges in groups:
// edges lying in two of its lower faces (3 lines), then in exactly one (3
// faces), then the rest (interior). A lower neighbour only ever needs edges
// that lie in the planes they share, and every group it needs lies wholly in
// its own cached samples, so it can count ranks within the group itself; it
// only needs where the group starts, from the first vertex and group sizes
// the vertex-count pass stores per listed block. Nothing per voxel is stored
// in device memory.

#include "block_edge_groups.glsl"

const uint CACHE_X = BLOCK_X + 1u, CACHE_Y = BLOCK_Y + 1u, CACHE_Z = BLOCK_Z + 1u;
const uint CACHE_SIZE = CACHE_X * CACHE_Y * CACHE_Z;

// Shared memory is kept narrow: the triangle pass lives on many workgroups
// in flight, and on the H100 each 512 bytes added to a workgroup cost it
// 7-15% at 8x4x4, while halving the arrays took 4x4x8 blocks from 0.93 to
// 0.86 ms (docs/BENCHMARKS.md). So samples of 8-bit volumes are cached as
// bytes (BYTE_SAMPLES) and crossing bits as one byte a voxel. The includer
// enables the 8-bit arithmetic types.
layout(constant_id = 19) const bool BYTE_SAMPLES = false;
shared float cachedValue[BYTE_SAMPLES ? 1u : CACHE_SIZE];
shared uint8_t cachedByte[BYTE_SAMPLES ? CACHE_SIZE : 1u];
shared uint8_t crossedEdges[CACHE_SIZE]; // bit a: the edge along axis a leaving this voxel is crossed

uint cacheIndex(uvec3 c) { return c.x + CACHE_X * (c.y + CACHE_Y * c.z); }
uvec3 cacheCoordinates(uint i) { return uvec3(i % CACHE_X, (i / CACHE_X) % CACHE_Y, i / (CACHE_X * CACHE_Y)); }

float cachedSample(uint i) { return BYTE_SAMPLES ? float(cachedByte[i]) : cachedValue[i]; }
uint crossedBitsAt(uint i) { return uint(crossedEdges[i]); }

// The Marching Cubes case of the cell at cached voxel l (its 8 corners cached).
uint cellCase(uvec3 l)
{
    uint caseIndex = 0u;
    for (uint corner = 0u; corner < 8u; ++corner)
        if (isInside(cachedSample(cacheIndex(l + cubeCornerOffset(corner)))))
            caseIndex |= 1u << corner;
    return caseIndex;
}

// One bit per edge of every line and face group of this block and its 7
// upper neighbours (those whose edges lie in the cache), so a rank within a
// group is a few popcounts instead of a walk over the face.
const uint AREA_XY = BLOCK_X * BLOCK_Y, AREA_XZ = BLOCK_X * BLOCK_Z, AREA_YZ = BLOCK_Y * BLOCK_Z;
const uint AREA_MAX = AREA_XY > AREA_XZ ? (AREA_XY > AREA_YZ ? AREA_XY : AREA_YZ) : (AREA_XZ > AREA_YZ ? AREA_XZ : AREA_YZ);
const uint MASK_WORDS = (2u * AREA_MAX + 31u) / 32u;
const uint BORROWABLE_GROUPS = 6u;
shared uint groupMask[8u * BORROWABLE_GROUPS * MASK_WORDS];

uint maskBase(uint neighbour, uint group) { return (neighbour * BORROWABLE_GROUPS + group) * MASK_WORDS; }

// Starts loading samples [origin, origin + block] into shared memory and
// clears the group masks; a barrier must follow before either is read.
void loadBlockSamples(ivec3 origin)
{
    for (uint i = gl_LocalInvocationIndex; i < 8u * BORROWABLE_GROUPS * MASK_WORDS; i += WORKGROUP_SIZE)
        groupMask[i] = 0u;
    for (uint i = gl_LocalInvocationIndex; i < CACHE_SIZE; i += WORKGROUP_SIZE) {
        ivec3 p = origin + ivec3(cacheCoordinates(i));
        float value = all(lessThan(p, params.dims)) ? fieldAt(p) : 0.0;
        if (BYTE_SAMPLES)
            cachedByte[i] = uint8_t(value); // an integer 0..255 (fieldAt rounds 8-bit data)
        else
            cachedValue[i] = value;
    }
}

// Bit a: the grid edge along axis a leaving cached voxel c is crossed (both
// its ends cached and in the volume, one inside, one not).
uint crossedBitsOf(uvec3 c, ivec3 origin)
{
    ivec3 p = origin + ivec3(c);
    if (!all(lessThan(p, params.dims)))
        return 0u;
    bool inside = isInside(cachedSample(cacheIndex(c)));
    uint bits = 0u;
    if (c.x + 1u < CACHE_X && p.x + 1 < params.dims.x && isInside(cachedSample(cacheIndex(c + uvec3(1u, 0u, 0u)))) != inside)
        bits |= 1u;
    if (c.y + 1u < CACHE_Y && p.y + 1 < params.dims.y && isInside(cachedSample(cacheIndex(c + uvec3(0u, 1u, 0u)))) != inside)
        bits |= 2u;
    if (c.z + 1u < CACHE_Z && p.z + 1 < params.dims.z && isInside(cachedSample(cacheIndex(c + uvec3(0u, 0u, 1u)))) != inside)
        bits |= 4u;
    return bits;
}

// After loadBlockSamples and a barrier: the crossed edges of every cached
// voxel and (welded) the group masks; a barrier must follow before either is
// read.
void markCrossedEdges(ivec3 origin)
{
    for (uint i = gl_LocalInvocationIndex; i < CACHE_SIZE; i += WORKGROUP_SIZE) {
        uvec3 c = cacheCoordinates(i);
        uint bits = crossedBitsOf(c, origin);
        crossedEdges[i] = uint8_t(bits);
        if (WELD && bits != 0u) {
            uvec3 upper = uvec3(greaterThanEqual(c, blockSize()));
            uvec3 l = c - upper * blockSize();
            uint neighbour = upper.x + 2u * upper.y + 4u * upper.z;
            for (uint a = 0u; a < 3u; ++a) {
                uint group = edgeGroup(l, a);
                if ((bits & (1u << a)) != 0u && group != GROUP_INTERIOR) {
                    uint position = positionInGroup(l, a, group);
                    atomicOr(groupMask[maskBase(neighbour, group) + position / 32u], 1u << (position % 32u));
                }
            }
        }
    }
}

// The crossed edges of group `group` (not the interior) of upper neighbour
// `neighbour` (0: this block) that come before edge (l, axis) in its order.
uint rankInGroup(uint neighbour, uvec3 l, uint axis, uint group)
{
    uint position = positionInGroup(l, axis, group);
    uint base = maskBase(neighbour, group);
    uint rank = 0u;
    for (uint w = 0u; w < position / 32u; ++w)
        rank += bitCount(groupMask[base + w]);
    return rank + bitCount(groupMask[base + position / 32u] & ((1u << (position % 32u)) - 1u));
}
