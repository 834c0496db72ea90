// Classification of a slab's points sixteen at a time along x (a "span"), as
// the count and list passes share it. The corners of a span's points lie on
// four lines of 17 samples, (y, z), (y + 1, z), (y, z + 1), (y + 1, z + 1),
// read with wide loads: for uint8 volumes one 16-byte load and one word a
// line where the line starts on 16 bytes (else five words), each word
// compared with the isovalue four bytes at once; float32 and 16-bit lines
// four samples a load where they start on 16 or 8 bytes (lineInsideBits).
// Each line's inside bits are kept, 17 bits a line, and every count, case and
// crossed edge of the span's points is bit arithmetic on them. Only the
// points whose samples are not all on one side (`mixed`) are visited.
//
// Spans are numbered x fastest, then y, then z, so walking spans in order
// walks points in order (the list comes out sorted by point index). A row
// whose length is not a multiple of 16 ends with a shorter span.
//
// Before including: scan_grid.glsl, case_table.glsl, the constant WELD,
// VOLUME_VECTORS_BINDING and VOLUME_PAIRS_BINDING (line_inside_bits.glsl).

#include "line_inside_bits.glsl"

const uint SPAN_POINTS = 16u;

uint spansPerRow() { return (grid.nx + SPAN_POINTS - 1u) / SPAN_POINTS; }
uint slabRowCount() { return grid.ny * grid.planes; }
uint slabSpanCount() { return spansPerRow() * slabRowCount(); }

struct Span {
    uint x0, y, z;  // its first point (z absolute)
    uint row;       // y + ny * (z - z0)
    uint points;    // 1 to 16
    uvec4 lines;    // inside bits of line dy + 2 dz: bit k is sample x0 + k
    uint mixed;     // bit k: point x0 + k reads samples on both sides (only these can emit anything)
};

Span loadSpan(uint spanIndex)
{
    uint perRow = spansPerRow();
    Span s;
    s.row = spanIndex / perRow;
    s.x0 = (spanIndex - s.row * perRow) * SPAN_POINTS;
    uint plane = s.row / grid.ny; // two integer divisions a span, not three
    s.y = s.row - plane * grid.ny;
    s.z = grid.z0 + plane;
    s.points = min(SPAN_POINTS, grid.nx - s.x0);
    uint samples = min(SPAN_POINTS + 1u, grid.nx - s.x0);
    // Lines past the slab's top plane or the volume's last row are never
    // read: no cell and no owned edge reaches them (scan_grid.glsl).
    bool hasY = s.y + 1u < grid.ny;
    bool hasZ = s.z + 1u < grid.z0 + grid.planes;
    uint base = boundSampleIndex(uvec3(s.x0, s.y, s.z));
    uint planeSamples = grid.nx * grid.ny;
    s.lines = uvec4(lineInsideBits(base, samples), 0u, 0u, 0u);
    // A missing line counts as a copy of the first, so that it makes no point mixed.
    s.lines.y = hasY ? lineInsideBits(base + grid.nx, samples) : s.lines.x;
    s.lines.z = hasZ ? lineInsideBits(base + planeSamples, samples) : s.lines.x;
    s.lines.w = hasY && hasZ ? lineInsideBits(base + planeSamples + grid.nx, samples) : s.lines.x;
    // Point k reads samples k and k + 1 of the lines (only k where k + 1 is
    // past the row): it is mixed when those are not all equal. Empty space
    // (and solid inside), most of a volume, has no mixed point.
    uint valid = (1u << samples) - 1u;
    uint someIn = (s.lines.x | s.lines.y | s.lines.z | s.lines.w) & valid;
    uint allIn = (s.lines.x & s.lines.y & s.lines.z & s.lines.w) | ~valid;
    s.mixed = (someIn | (someIn >> 1)) & ~(allIn & (allIn >> 1)) & ((1u << s.points) - 1u);
    return s;
}

struct SpanPoint {
    uint caseIndex;    // 0 where the point has no cell
    uint ownedCrossed; // bit a: the point owns edge +a and it is crossed
    uint vertices;     // welded: owned crossed edges; soup: 3 per triangle
    uint triangles;
};

SpanPoint spanPoint(Span s, uint k)
{
    uint x = s.x0 + k;
    uvec4 line = s.lines >> k;
    SpanPoint point;
    bool cell = x + 1u < grid.nx && s.y + 1u < grid.ny && s.z + 1u < grid.z0 + grid.planes;
    point.caseIndex = cell ? (line.x & 3u) | (line.y & 3u) << 2 | (line.z & 3u) << 4 | (line.w & 3u) << 6 : 0u;
    // Cases 0 and 255 skip the table load.
    point.triangles = point.caseIndex != 0u && point.caseIndex != 255u ? caseTriangleCount(point.caseIndex) : 0u;
    bool ownsPlane = s.z > grid.z0 || (grid.slabFlags & SLAB_FIRST) != 0u;
    uint inside = line.x & 1u;
    uint crossed = 0u;
    if (ownsPlane && x + 1u < grid.nx && ((line.x >> 1) & 1u) != inside)
        crossed |= 1u;
    if (ownsPlane && s.y + 1u < grid.ny && (line.y & 1u) != inside)
        crossed |= 2u;
    if (s.z + 1u < grid.z0 + grid.planes && (line.z & 1u) != inside)
        crossed |= 4u;
    point.ownedCrossed = crossed;
    point.vertices = WELD != 0u ? bitCount(crossed) : 3u * point.triangles;
    return point;
}

bool isOccupied(SpanPoint point) { return point.vertices + point.triangles != 0u; }

// A span's counts packed for one uvec2 scan: (vertices | occupied << 16,
// triangles). A tile of at most 4096 points keeps each field's sums exact
// (vertices at most 15 a point, 61440 a tile).
uvec2 spanCounts(Span s)
{
    uvec2 counts = uvec2(0u);
    for (uint m = s.mixed; m != 0u; m &= m - 1u) {
        SpanPoint point = spanPoint(s, uint(findLSB(m)));
        counts += uvec2(point.vertices + (isOccupied(point) ? 1u << 16 : 0u), point.triangles);
    }
    return counts;
}
