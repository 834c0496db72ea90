// A vertex for each MC polygon of a cell, on the cell's trilinear isosurface
// (paper, "Positioning of vertex representatives"): two local coordinates
// are sampled over the polygon's bounding box in the plane where the polygon
// projects largest, the third solved from the trilinear interpolant (Eq. 3);
// samples outside the cell, or (for a polygon of more than three edges in a
// cell of several) inside another polygon's bounding box, are discarded; the
// sample nearest the polygon's centroid wins. 7x7 samples, then 25x25, then
// the centroid itself as the last resort (counted: the paper never needed it).
//
// The includer includes dual_polygons.glsl first and defines
// void countWideSearch(), called where the 25x25 search runs.

// Corner c of a cell sits at (c & 1, (c >> 1) & 1, (c >> 2) & 1).
vec3 cornerOffset(uint c) { return vec3(c & 1u, (c >> 1) & 1u, (c >> 2) & 1u); }

// gridGradient (grid_gradient.glsl) at corner c of the cell q whose corner
// values are f, the same numbers: along each axis one neighbour is another
// corner of the cell, so only the outer one is read (24 loads a cell, not 56).
vec3 cornerGradient(uvec3 q, float f[8], uint c)
{
    uvec3 p = q + uvec3(c & 1u, (c >> 1) & 1u, c >> 2);
    uvec3 dims = gridDims();
    float centre = f[c];
    vec3 gradient = vec3(0.0);
    for (uint axis = 0u; axis < 3u; ++axis) {
        bool upper = ((c >> axis) & 1u) != 0u;
        float inner = f[c ^ (1u << axis)];
        bool innerFinite = isFiniteValue(inner);
        float outer = centre;
        bool outerFinite = false;
        if (upper ? p[axis] + 1u < dims[axis] : p[axis] > 0u) {
            uvec3 o = p;
            o[axis] = upper ? p[axis] + 1u : p[axis] - 1u;
            outer = sampleAt(o);
            outerFinite = isFiniteValue(outer);
        }
        // A non-finite neighbour is replaced by the centre (one-sided difference).
        float innerValue = innerFinite ? inner : centre, outerValue = outerFinite ? outer : centre;
        uint steps = (innerFinite ? 1u : 0u) + (outerFinite ? 1u : 0u);
        float difference = upper ? outerValue - innerValue : innerValue - outerValue;
        if (steps != 0u)
            gradient[axis] = difference / (float(steps) * gridSpacing()[axis]);
    }
    bool finite = all(not(isnan(gradient))) && all(not(isinf(gradient)));
    return finite ? gradient : vec3(0.0);
}

// Where the crossed edge e meets the isosurface, in local coordinates
// (the midpoint next to a non-finite value).
vec3 edgePoint(float f[8], uint e)
{
    uint axis = e >> 2;
    uint otherLow = axis == 0u ? 1u : 0u;
    uint otherHigh = axis == 2u ? 1u : 2u;
    uint c0 = ((e & 1u) << otherLow) | (((e >> 1) & 1u) << otherHigh);
    uint c1 = c0 | (1u << axis);
    float a = f[c0], b = f[c1];
    float t = isFiniteValue(a) && isFiniteValue(b) ? (grid.iso - a) / (b - a) : 0.5;
    vec3 p = cornerOffset(c0);
    p[axis] = clamp(t, 0.0, 1.0);
    return p;
}

struct PolygonShape {
    vec3 low, high;  // bounding box, local coordinates
    vec3 center;     // the centroid of the edge points
    vec3 area;       // Newell's vector: twice the area, along the polygon's normal
};

PolygonShape polygonShape(float f[8], CellPolygons polygons, uint first, uint size)
{
    PolygonShape s;
    s.low = vec3(1.0);
    s.high = vec3(0.0);
    s.center = vec3(0.0);
    s.area = vec3(0.0);
    vec3 previous = edgePoint(f, polygonEdge(polygons, first + size - 1u));
    for (uint i = 0u; i < size; ++i) {
        vec3 p = edgePoint(f, polygonEdge(polygons, first + i));
        s.low = min(s.low, p);
        s.high = max(s.high, p);
        s.center += p;
        s.area += cross(previous, p);
        previous = p;
    }
    s.center /= float(size);
    return s;
}

bool insideBox(vec3 p, vec3 low, vec3 high) { return all(greaterThanEqual(p, low)) && all(lessThanEqual(p, high)); }

// The best sample of an n x n grid over the polygon's box, or false.
bool sampleSurface(float f[8], PolygonShape shape, uint solved, vec3 otherLow[3], vec3 otherHigh[3], uint others,
                   uint n, out vec3 best)
{
    uint a = solved == 0u ? 1u : 0u;
    uint b = solved == 2u ? 1u : 2u;
    // Eq. 4: the interpolant on the cell's two faces across the solved axis,
    // bilinear in the sampled pair, from those faces' corner values.
    uint ca = 1u << a, cb = 1u << b, cs = 1u << solved;
    vec4 face1 = vec4(f[0], f[ca], f[cb], f[ca | cb]);
    vec4 face2 = vec4(f[cs], f[cs | ca], f[cs | cb], f[cs | ca | cb]);
    float bestDistance = 1e30;
    for (uint i = 0u; i < n; ++i) {
        for (uint j = 0u; j < n; ++j) {
            vec3 p;
            p[a] = mix(shape.low[a], shape.high[a], float(i) / float(n - 1u));
            p[b] = mix(shape.low[b], shape.high[b], float(j) / float(n - 1u));
            float g1 = mix(mix(face1.x, face1.y, p[a]), mix(face1.z, face1.w, p[a]), p[b]);
            float g2 = mix(mix(face2.x, face2.y, p[a]), mix(face2.z, face2.w, p[a]), p[b]);
            if (g1 == g2)
                continue;
            float t = (grid.iso - g1) / (g2 - g1);
            if (!(t >= 0.0 && t <= 1.0))
                continue;
            p[solved] = t;
            bool excluded = false;
            for (uint k = 0u; k < others; ++k)
                excluded = excluded || insideBox(p, otherLow[k], otherHigh[k]);
            vec3 offset = p - shape.center;
            float d = dot(offset, offset); // squared: the same order, no square root
            if (!excluded && d < bestDistance) {
                bestDistance = d;
                best = p;
            }
        }
    }
    return bestDistance < 1e30;
}

// The representative of polygon `index` (its edges from `first`), local
// coordinates; `fellBack` when no sample was valid.
vec3 representative(float f[8], CellPolygons polygons, uint index, uint first, bool finite, out bool fellBack,
                    out PolygonShape shape)
{
    uint size = polygonSize(polygons, index);
    shape = polygonShape(f, polygons, first, size);
    fellBack = false;
    if (!finite)
        return shape.center; // no trilinear surface next to a non-finite sample
    // The other polygons' boxes, for a polygon that could otherwise be
    // mistaken for another branch (paper: more than three edges).
    vec3 otherLow[3], otherHigh[3];
    uint others = 0u;
    if (polygons.count > 1u && size > 3u) {
        uint start = 0u;
        for (uint k = 0u; k < polygons.count; ++k) {
            uint s = polygonSize(polygons, k);
            if (k != index) {
                PolygonShape o = polygonShape(f, polygons, start, s);
                otherLow[others] = o.low;
                otherHigh[others] = o.high;
                ++others;
            }
            start += s;
        }
    }
    vec3 n = abs(shape.area);
    uint solved = n.x >= n.y && n.x >= n.z ? 0u : (n.y >= n.z ? 1u : 2u);
    vec3 best;
    if (sampleSurface(f, shape, solved, otherLow, otherHigh, others, 7u, best))
        return best;
    countWideSearch();
    if (sampleSurface(f, shape, solved, otherLow, otherHigh, others, 25u, best))
        return best;
    fellBack = true;
    return shape.center;
}
