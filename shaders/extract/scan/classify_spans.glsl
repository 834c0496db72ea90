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
// Tiles: each plane of spans is cut into tiles of TILE_SPANS consecutive
// spans (its last tile may be shorter), so that tile t + tilesPerPlane() is
// tile t one plane up: the count pass walks a column of tiles and reuses each
// plane's lines for the next.
//
// Before including: scan_grid.glsl, case_table.glsl, the constants WELD and
// TILE_SPANS, VOLUME_VECTORS_BINDING and VOLUME_PAIRS_BINDING
// (line_inside_bits.glsl).

#include "line_inside_bits.glsl"

const uint SPAN_POINTS = 16u;

uint spansPerRow() { return (grid.nx + SPAN_POINTS - 1u) / SPAN_POINTS; }
uint slabRowCount() { return grid.ny * grid.planes; }
uint slabSpanCount() { return spansPerRow() * slabRowCount(); }
uint planeSpanCount() { return spansPerRow() * grid.ny; }
uint tilesPerPlane() { return (planeSpanCount() + TILE_SPANS - 1u) / TILE_SPANS; }
uint slabTileCount() { return tilesPerPlane() * grid.planes; }

// Tile t's first span and its number of spans.
uvec2 tileSpans(uint tile)
{
    uint plane = tile / tilesPerPlane();
    uint inPlane = (tile - plane * tilesPerPlane()) * TILE_SPANS;
    return uvec2(plane * planeSpanCount() + inPlane, min(TILE_SPANS, planeSpanCount() - inPlane));
}

struct Span {
    uint x0, y, z;  // its first point (z absolute)
    uint row;       // y + ny * (z - z0)
    uint points;    // 1 to 16
    uvec4 lines;    // inside bits of line dy + 2 dz: bit k is sample x0 + k
    uint mixed;     // bit k: point x0 + k reads samples on both sides (only these can emit anything)
};

// A span's position, without its lines.
Span spanAt(uint spanIndex)
{
    uint perRow = spansPerRow();
    Span s;
    s.row = spanIndex / perRow;
    s.x0 = (spanIndex - s.row * perRow) * SPAN_POINTS;
    uint plane = s.row / grid.ny; // two integer divisions a span, not three
    s.y = s.row - plane * grid.ny;
    s.z = grid.z0 + plane;
    s.points = min(SPAN_POINTS, grid.nx - s.x0);
    return s;
}

uint spanSamples(Span s) { return min(SPAN_POINTS + 1u, grid.nx - s.x0); }
// Lines past the slab's top plane or the volume's last row are never read:
// no cell and no owned edge reaches them (scan_grid.glsl).
bool spanHasY(Span s) { return s.y + 1u < grid.ny; }
bool spanHasZ(Span s) { return s.z + 1u < grid.z0 + grid.planes; }

// Sets the span's lines, (y, z), (y + 1, z), (y, z + 1), (y + 1, z + 1), a
// missing one (spanHasY, spanHasZ) as a copy of the first, so that it makes
// no point mixed; and from them which points are mixed.
void setLines(inout Span s, uvec4 lines)
{
    bool hasY = spanHasY(s), hasZ = spanHasZ(s);
    s.lines = uvec4(lines.x, hasY ? lines.y : lines.x, hasZ ? lines.z : lines.x, hasY && hasZ ? lines.w : lines.x);
    // Point k reads samples k and k + 1 of the lines (only k where k + 1 is
    // past the row): it is mixed when those are not all equal. Empty space
    // (and solid inside), most of a volume, has no mixed point.
    uint valid = (1u << spanSamples(s)) - 1u;
    uint someIn = (s.lines.x | s.lines.y | s.lines.z | s.lines.w) & valid;
    uint allIn = (s.lines.x & s.lines.y & s.lines.z & s.lines.w) | ~valid;
    s.mixed = (someIn | (someIn >> 1)) & ~(allIn & (allIn >> 1)) & ((1u << s.points) - 1u);
}

Span loadSpan(uint spanIndex)
{
    Span s = spanAt(spanIndex);
    uint samples = spanSamples(s);
    bool hasY = spanHasY(s), hasZ = spanHasZ(s);
    uint base = boundSampleIndex(uvec3(s.x0, s.y, s.z));
    uint planeSamples = grid.nx * grid.ny;
    uvec4 lines = uvec4(lineInsideBits(base, samples), 0u, 0u, 0u);
    if (hasY)
        lines.y = lineInsideBits(base + grid.nx, samples);
    if (hasZ)
        lines.z = lineInsideBits(base + planeSamples, samples);
    if (hasY && hasZ)
        lines.w = lineInsideBits(base + planeSamples + grid.nx, samples);
    setLines(s, lines);
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
    if (s.mixed == 0u)
        return uvec2(0u);
    // spanPoint's tests for all the span's points at once: the crossed owned
    // edges by bit arithmetic on the lines, a table load only for the
    // triangles of the mixed points that have a cell.
    uint pointMask = (1u << s.points) - 1u;
    uint xMask = pointMask & ((1u << (spanSamples(s) - 1u)) - 1u); // points with a +x neighbour
    bool ownsPlane = s.z > grid.z0 || (grid.slabFlags & SLAB_FIRST) != 0u;
    uint a = s.lines.x;
    uint crossedX = ownsPlane ? (a ^ (a >> 1)) & xMask : 0u;
    uint crossedY = ownsPlane && spanHasY(s) ? (a ^ s.lines.y) & pointMask : 0u;
    uint crossedZ = spanHasZ(s) ? (a ^ s.lines.z) & pointMask : 0u;
    uint cells = spanHasY(s) && spanHasZ(s) ? s.mixed & xMask : 0u; // mixed points with a cell: 1 to 5 triangles
    uint triangles = 0u;
    for (uint m = cells; m != 0u; m &= m - 1u) {
        uvec4 line = s.lines >> uint(findLSB(m));
        triangles += caseTriangleCount((line.x & 3u) | (line.y & 3u) << 2 | (line.z & 3u) << 4 | (line.w & 3u) << 6);
    }
    uint vertices = WELD != 0u ? bitCount(crossedX) + bitCount(crossedY) + bitCount(crossedZ) : 3u * triangles;
    uint occupied = bitCount(WELD != 0u ? crossedX | crossedY | crossedZ | cells : cells);
    return uvec2(vertices + (occupied << 16), triangles);
}
