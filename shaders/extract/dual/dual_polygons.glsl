// The MC polygons of one cell (paper, "Computation of MC polygons"): per
// face, segments between the crossed edges with the inside (values >= iso)
// on their left as seen from outside the cell; a face with four crossings is
// resolved by the asymptotic decider (Nielson & Hamann), which depends only
// on the face's four values, so the two cells sharing a face agree and the
// mesh is consistent across cells. The segments then chain into up to four
// closed polygons. Corner and edge numbering as engine/extract/case_table.h.
//
// The includer defines bool isInside(float v).

// Edge joining corners a and b of a cell (they differ in one bit).
uint edgeBetween(uint a, uint b)
{
    uint axis = uint(findLSB(a ^ b));
    uint low = min(a, b);
    uint otherLow = axis == 0u ? 1u : 0u;
    uint otherHigh = axis == 2u ? 1u : 2u;
    return axis * 4u + ((low >> otherLow) & 1u) + 2u * ((low >> otherHigh) & 1u);
}

// Corner i of face f (f = axis * 2 + side), counter-clockwise as seen from
// outside the cell: the rule of cubeFace in engine/extract/case_table.cpp.
uint faceCorner(uint face, uint i)
{
    uint axis = face >> 1, side = face & 1u;
    uint otherLow = axis == 0u ? 1u : 0u;
    uint otherHigh = axis == 2u ? 1u : 2u;
    bool reversed = (axis != 1u) != (side == 1u);
    uint k = reversed ? 3u - i : i;
    uint su = (k == 1u || k == 2u) ? 1u : 0u, sv = k >= 2u ? 1u : 0u;
    return (side << axis) | (su << otherLow) | (sv << otherHigh);
}

// Twelve 4-bit fields in two words (edge numbers): bit fields, not arrays,
// so that a cell's polygons stay in a few registers (indexed arrays went to
// local memory in the vertex search's long-lived state).
uint nibbleAt(uvec2 v, uint i) { return i < 8u ? bitfieldExtract(v.x, int(4u * i), 4) : bitfieldExtract(v.y, int(4u * i - 32u), 4); }
uvec2 withNibble(uvec2 v, uint i, uint value)
{
    if (i < 8u)
        v.x = bitfieldInsert(v.x, value, int(4u * i), 4);
    else
        v.y = bitfieldInsert(v.y, value, int(4u * i - 32u), 4);
    return v;
}

struct CellPolygons {
    uint count;     // closed polygons, 0 .. 4
    uint sizes;     // 4 bits each
    uvec2 edges;    // the polygons' edges one after another, in loop order (nibbleAt)
    uint polygonOf; // per cell edge, 2 bits: its polygon (crossed edges only)
};

uint polygonEdge(CellPolygons p, uint i) { return nibbleAt(p.edges, i); }
uint polygonOfEdge(CellPolygons p, uint e) { return bitfieldExtract(p.polygonOf, int(2u * e), 2); }

// `f`: the cell's corner values. The loop order keeps the inside on the left
// as seen from outside (as marchingCubesLoops in case_table.h).
CellPolygons cellPolygons(float f[8])
{
    uvec2 next = uvec2(0u); // per crossed edge, the next edge of its loop (nibbleAt)
    uint crossed = 0u;
    for (uint face = 0u; face < 6u; ++face) {
        uint c[4];
        bool inside[4];
        for (uint i = 0u; i < 4u; ++i) {
            c[i] = faceCorner(face, i);
            inside[i] = isInside(f[c[i]]);
        }
        uint leaving[2], entering[2];
        uint crossings = 0u;
        for (uint i = 0u; i < 4u; ++i) {
            uint j = (i + 1u) & 3u;
            if (inside[i] != inside[j]) {
                uint e = edgeBetween(c[i], c[j]);
                crossed |= 1u << e;
                if (inside[i])
                    leaving[crossings >> 1] = e; // walking counter-clockwise, the walk leaves the inside here
                else
                    entering[crossings >> 1] = e;
                ++crossings;
            }
        }
        if (crossings == 2u) {
            next = withNibble(next, leaving[0], entering[0]);
        } else if (crossings == 4u) {
            // Corners 0 and 2 share a side (both inside or both outside). The
            // bilinear interpolant's saddle value decides whether the inside
            // corners are joined through the face (asymptotic decider).
            float a = f[c[0]], b = f[c[1]], cc = f[c[2]], d = f[c[3]];
            float saddle = (a * cc - b * d) / (a + cc - b - d);
            bool joined = saddle >= grid.iso;
            // Leaving at edge i: joined insides continue to the next crossing
            // (edge i + 1), separated ones turn back to the previous one.
            for (uint i = 0u; i < 4u; ++i) {
                uint j = (i + 1u) & 3u;
                if (inside[i] && !inside[j]) {
                    uint e = edgeBetween(c[i], c[j]);
                    uint k = joined ? j : (i + 3u) & 3u;
                    next = withNibble(next, e, edgeBetween(c[k], c[(k + 1u) & 3u]));
                }
            }
        }
    }
    CellPolygons p;
    p.count = 0u;
    p.sizes = 0u;
    p.edges = uvec2(0u);
    p.polygonOf = 0u;
    uint written = 0u;
    uint left = crossed;
    while (left != 0u) {
        uint start = uint(findLSB(left));
        uint e = start;
        uint size = 0u;
        do {
            p.edges = withNibble(p.edges, written++, e);
            p.polygonOf = bitfieldInsert(p.polygonOf, p.count, int(2u * e), 2);
            left &= ~(1u << e);
            e = nibbleAt(next, e);
            ++size;
        } while (e != start && size < 12u);
        p.sizes |= size << (4u * p.count);
        ++p.count;
    }
    return p;
}

uint polygonSize(CellPolygons p, uint i) { return bitfieldExtract(p.sizes, int(4u * i), 4); }
