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

struct CellPolygons {
    uint count;        // closed polygons, 0 .. 4
    uint sizes;        // 4 bits each
    uint edges[12];    // the polygons' edges one after another, in loop order
    uint polygonOf[12]; // per cell edge: its polygon (crossed edges only)
};

// `f`: the cell's corner values. The loop order keeps the inside on the left
// as seen from outside (as marchingCubesLoops in case_table.h).
CellPolygons cellPolygons(float f[8])
{
    uint next[12];
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
            next[leaving[0]] = entering[0];
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
                    next[e] = edgeBetween(c[k], c[(k + 1u) & 3u]);
                }
            }
        }
    }
    CellPolygons p;
    p.count = 0u;
    p.sizes = 0u;
    uint written = 0u;
    uint left = crossed;
    while (left != 0u) {
        uint start = uint(findLSB(left));
        uint e = start;
        uint size = 0u;
        do {
            p.edges[written++] = e;
            p.polygonOf[e] = p.count;
            left &= ~(1u << e);
            e = next[e];
            ++size;
        } while (e != start && size < 12u);
        p.sizes |= size << (4u * p.count);
        ++p.count;
    }
    return p;
}

uint polygonSize(CellPolygons p, uint i) { return bitfieldExtract(p.sizes, int(4u * i), 4); }
