// Classification of a slab's points four at a time along x (a "quad"), as
// the count and list passes share it. The corners of a quad's points lie on
// four lines of five samples, (y, z), (y + 1, z), (y, z + 1), (y + 1, z + 1):
// 20 samples instead of 4 x 8, and for uint8 volumes two word loads a line
// (one word holds four samples, compared with the isovalue at once); float32
// and 16-bit lines are two loads too where they start on 16 or 8 bytes
// (lineInsideBits). Each line's inside bits are kept, 8 bits a line in one
// uint, and every count, case and crossed edge of the four points is bit
// arithmetic on them.
//
// Quads are numbered x fastest, then y, then z, so walking quads in order
// walks points in order (the list comes out sorted by point index). A row
// whose length is not a multiple of 4 ends with a shorter quad.
//
// Before including: scan_grid.glsl, case_table.glsl, the constant WELD,
// VOLUME_VECTORS_BINDING and VOLUME_PAIRS_BINDING, the volume's bound range
// again as 16-byte and as 8-byte vectors.

layout(set = 0, binding = VOLUME_VECTORS_BINDING, std430) readonly buffer VolumeVectors { uvec4 volumeVectors[]; };
// 16-bit samples four at a time get a view of their own rather than half of
// a 16-byte vector: lane k's line starts 8 bytes after lane k - 1's (quads
// are four samples apart), so a subgroup's 8-byte loads cover exactly the
// contiguous bytes its lines need, each lane loading only what it uses. Half
// of a uvec4 would load 16 bytes a lane, pick its half at run time (whether
// the line starts on 16 bytes) and keep twice the registers live.
layout(set = 0, binding = VOLUME_PAIRS_BINDING, std430) readonly buffer VolumePairs { uvec2 volumePairs[]; };

uint quadsPerRow() { return (grid.nx + 3u) / 4u; }
uint slabRowCount() { return grid.ny * grid.planes; }
uint slabQuadCount() { return quadsPerRow() * slabRowCount(); }

struct Quad {
    uint x0, y, z; // its first point (z absolute)
    uint row;      // y + ny * (z - z0)
    uint points;   // 1 to 4
    uint lines;    // inside bits: line j = dy + 2 dz at bits 8j .. 8j + 4
    bool sameSide; // every sample it reads on one side: no point emits anything
};

#include "byte_threshold.glsl"

uint uint8Threshold() { return uint8ThresholdOf(grid.iso); }

// Bits 0..3: which of four samples are inside.
uint insideBits(vec4 four)
{
    return (isInside(four.x) ? 1u : 0u) | (isInside(four.y) ? 2u : 0u) | (isInside(four.z) ? 4u : 0u) |
           (isInside(four.w) ? 8u : 0u);
}

// Inside bits of `n` (at most 5) consecutive samples from bound sample index `start`.
uint lineInsideBits(uint start, uint n)
{
    uint mask = (1u << n) - 1u;
    if (grid.scalarType == SCALAR_UINT8) {
        uint t = uint8Threshold();
        if (t > 255u)
            return 0u;
        uint first = start & 3u;
        uint bits = bytesAtLeast(volumeWords[start >> 2], t);
        if (first + n > 4u)
            bits |= bytesAtLeast(volumeWords[(start >> 2) + 1u], t) << 4;
        return (bits >> first) & mask;
    }
    if (grid.scalarType == SCALAR_FLOAT32 && n >= 4u && (start & 3u) == 0u) {
        // Four samples in one 16-byte load (the bound range starts on 16
        // bytes: slab_plan.cpp), as uint8 takes four in one word.
        uint bits = insideBits(uintBitsToFloat(volumeVectors[start >> 2]));
        if (n == 5u && isInside(uintBitsToFloat(volumeWords[start + 4u])))
            bits |= 16u;
        return bits;
    }
    if (grid.scalarType != SCALAR_FLOAT32 && n >= 4u && (start & 3u) == 0u) {
        // 16-bit: four samples in one 8-byte load, on 8 bytes for the same
        // reason. Each sample is moved to the top half of a word and shifted
        // back down: arithmetically for int16 (sign-extended, as
        // volumeSampleAt's bitfieldExtract), logically for uint16.
        uvec4 high = volumePairs[start >> 2].xxyy << uvec4(16u, 0u, 16u, 0u);
        uint bits = insideBits(grid.scalarType == SCALAR_INT16 ? vec4(ivec4(high) >> 16) : vec4(high >> 16u));
        if (n == 5u && isInside(volumeSampleAt(start + 4u, grid.scalarType)))
            bits |= 16u;
        return bits;
    }
    uint bits = 0u;
    for (uint k = 0u; k < 5u; ++k)
        if (k < n && isInside(volumeSampleAt(start + k, grid.scalarType)))
            bits |= 1u << k;
    return bits;
}

Quad loadQuad(uint quadIndex)
{
    uint perRow = quadsPerRow();
    Quad q;
    q.row = quadIndex / perRow;
    q.x0 = (quadIndex - q.row * perRow) * 4u;
    uint plane = q.row / grid.ny; // two integer divisions a quad, not three
    q.y = q.row - plane * grid.ny;
    q.z = grid.z0 + plane;
    q.points = min(4u, grid.nx - q.x0);
    uint samples = min(5u, grid.nx - q.x0);
    // Lines past the slab's top plane or the volume's last row are never
    // read: no cell and no owned edge reaches them (scan_grid.glsl).
    bool hasY = q.y + 1u < grid.ny;
    bool hasZ = q.z + 1u < grid.z0 + grid.planes;
    uint base = boundSampleIndex(uvec3(q.x0, q.y, q.z));
    uint planeSamples = grid.nx * grid.ny;
    q.lines = lineInsideBits(base, samples);
    if (hasY)
        q.lines |= lineInsideBits(base + grid.nx, samples) << 8;
    if (hasZ)
        q.lines |= lineInsideBits(base + planeSamples, samples) << 16;
    if (hasY && hasZ)
        q.lines |= lineInsideBits(base + planeSamples + grid.nx, samples) << 24;
    // Most quads lie in empty space (or solid inside): every corner and edge
    // end of their points is one of these samples, so they skip the per-point work.
    uint line = (1u << samples) - 1u;
    uint valid = line | (hasY ? line << 8 : 0u) | (hasZ ? line << 16 : 0u) | (hasY && hasZ ? line << 24 : 0u);
    q.sameSide = q.lines == 0u || q.lines == valid;
    return q;
}

struct QuadPoint {
    uint caseIndex;    // 0 where the point has no cell
    uint ownedCrossed; // bit a: the point owns edge +a and it is crossed
    uint vertices;     // welded: owned crossed edges; soup: 3 per triangle
    uint triangles;
};

QuadPoint quadPoint(Quad q, uint k)
{
    uint x = q.x0 + k;
    uvec4 line = (uvec4(q.lines) >> uvec4(0u, 8u, 16u, 24u)) >> k;
    QuadPoint point;
    bool cell = x + 1u < grid.nx && q.y + 1u < grid.ny && q.z + 1u < grid.z0 + grid.planes;
    point.caseIndex = cell ? (line.x & 3u) | (line.y & 3u) << 2 | (line.z & 3u) << 4 | (line.w & 3u) << 6 : 0u;
    // Cases 0 and 255 (empty space, most points) skip the table load.
    point.triangles = point.caseIndex != 0u && point.caseIndex != 255u ? caseTriangleCount(point.caseIndex) : 0u;
    bool ownsPlane = q.z > grid.z0 || (grid.slabFlags & SLAB_FIRST) != 0u;
    uint inside = line.x & 1u;
    uint crossed = 0u;
    if (ownsPlane && x + 1u < grid.nx && ((line.x >> 1) & 1u) != inside)
        crossed |= 1u;
    if (ownsPlane && q.y + 1u < grid.ny && (line.y & 1u) != inside)
        crossed |= 2u;
    if (q.z + 1u < grid.z0 + grid.planes && (line.z & 1u) != inside)
        crossed |= 4u;
    point.ownedCrossed = crossed;
    point.vertices = WELD != 0u ? bitCount(crossed) : 3u * point.triangles;
    return point;
}

bool isOccupied(QuadPoint point) { return point.vertices + point.triangles != 0u; }

// A quad's counts packed for one uvec2 scan: (vertices | occupied << 16,
// triangles). A tile of at most 4096 points keeps each field's sums exact
// (vertices at most 15 a point, 61440 a tile).
uvec2 quadCounts(Quad q)
{
    uvec2 counts = uvec2(0u);
    for (uint k = 0u; k < 4u; ++k) {
        if (k >= q.points || q.sameSide)
            break;
        QuadPoint point = quadPoint(q, k);
        counts += uvec2(point.vertices + (isOccupied(point) ? 1u << 16 : 0u), point.triangles);
    }
    return counts;
}
