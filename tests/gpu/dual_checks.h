#pragma once
// Independent checks of a Dual Marching Cubes quad mesh (extract/dual), from
// the volume alone: the quads one per crossed interior grid edge, every
// vertex on the trilinear isosurface of a cell, every quad within the four
// cells around one grid edge.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include <glm/geometric.hpp>

#include "mesh/mesh.h"
#include "volume/volume.h"

namespace isoscope::test {

inline double sampleOf(const Volume& volume, uint32_t x, uint32_t y, uint32_t z)
{
    return volume.value(x, y, z);
}

inline bool insideValue(double v, double iso) { return std::isfinite(v) && v >= iso; }

// Grid edges whose ends lie on either side of iso and that four cells share:
// the quads Dual Marching Cubes must make, counted directly.
inline uint64_t crossedInteriorEdges(const Volume& volume, double iso)
{
    const std::array<uint32_t, 3>& n = volume.dims;
    uint64_t count = 0;
    for (uint32_t z = 0; z < n[2]; ++z)
        for (uint32_t y = 0; y < n[1]; ++y)
            for (uint32_t x = 0; x < n[0]; ++x) {
                std::array<uint32_t, 3> p{x, y, z};
                bool here = insideValue(sampleOf(volume, x, y, z), iso);
                for (int axis = 0; axis < 3; ++axis) {
                    int b = axis == 0 ? 1 : 0, c = axis == 2 ? 1 : 2;
                    if (p[axis] + 1 >= n[axis] || p[b] == 0 || p[b] + 1 >= n[b] || p[c] == 0 || p[c] + 1 >= n[c])
                        continue;
                    std::array<uint32_t, 3> q = p;
                    ++q[axis];
                    count += here != insideValue(sampleOf(volume, q[0], q[1], q[2]), iso);
                }
            }
    return count;
}

struct VertexOnSurface {
    uint64_t outsideGrid = 0;     // not within the grid's cells
    uint64_t offSurface = 0;      // |f(v) - iso| above 1e-4 of the cell's value range
    double worstRelative = 0.0;   // the largest |f(v) - iso| / range seen
};

// The vertex's position in grid-index units.
inline glm::dvec3 gridIndexOf(const Volume& volume, const glm::vec3& position)
{
    glm::dvec3 p;
    for (int a = 0; a < 3; ++a)
        p[a] = (double(position[a]) - volume.origin[a]) / volume.spacing[a];
    return p;
}

inline VertexOnSurface checkVerticesOnSurface(const Volume& volume, const Mesh& mesh, double iso)
{
    VertexOnSurface result;
    const double slack = 1e-4; // float positions: a few ulps of an index
    for (const glm::vec3& position : mesh.positions) {
        glm::dvec3 p = gridIndexOf(volume, position);
        std::array<uint32_t, 3> cell{};
        glm::dvec3 local;
        bool inGrid = true;
        for (int a = 0; a < 3; ++a) {
            double limit = double(volume.dims[a] - 1);
            inGrid = inGrid && p[a] >= -slack && p[a] <= limit + slack;
            double clamped = std::clamp(p[a], 0.0, limit);
            cell[a] = uint32_t(std::min(std::floor(clamped), limit - 1.0));
            local[a] = clamped - cell[a];
        }
        if (!inGrid) {
            ++result.outsideGrid;
            continue;
        }
        double f[8], low = INFINITY, high = -INFINITY;
        bool finite = true;
        for (int c = 0; c < 8; ++c) {
            f[c] = sampleOf(volume, cell[0] + (c & 1), cell[1] + ((c >> 1) & 1), cell[2] + (c >> 2));
            finite = finite && std::isfinite(f[c]);
            low = std::min(low, f[c]);
            high = std::max(high, f[c]);
        }
        if (!finite)
            continue; // no trilinear surface there: the method places the vertex at the polygon's centroid
        auto lerp = [](double a, double b, double t) { return a + (b - a) * t; };
        double value = lerp(lerp(lerp(f[0], f[1], local.x), lerp(f[2], f[3], local.x), local.y),
                            lerp(lerp(f[4], f[5], local.x), lerp(f[6], f[7], local.x), local.y), local.z);
        double relative = std::abs(value - iso) / std::max(high - low, 1e-30);
        result.worstRelative = std::max(result.worstRelative, relative);
        result.offSurface += relative > 1e-4;
    }
    return result;
}

// Quads whose four vertices do not fit in the 2x2x1 block of cells around a
// grid edge (their index-space box wider than two cells across, or than one
// cell along every axis).
inline uint64_t quadsNotAroundAnEdge(const Volume& volume, const Mesh& mesh)
{
    uint64_t bad = 0;
    for (size_t face = 0; face < mesh.faceCount(); ++face) {
        glm::dvec3 low(INFINITY), high(-INFINITY);
        for (int i = 0; i < 4; ++i) {
            glm::dvec3 p = gridIndexOf(volume, mesh.positions[mesh.indices[4 * face + i]]);
            low = glm::min(low, p);
            high = glm::max(high, p);
        }
        glm::dvec3 extent = high - low;
        bool within = extent.x <= 2.0 + 1e-4 && extent.y <= 2.0 + 1e-4 && extent.z <= 2.0 + 1e-4;
        bool thin = std::min({extent.x, extent.y, extent.z}) <= 1.0 + 1e-4;
        bad += !(within && thin);
    }
    return bad;
}

// Quads whose geometric normal (as triangles (a, b, c) and (a, c, d)) points
// against the mean of their vertex normals: they would face into the inside.
inline uint64_t quadsFacingInward(const Mesh& mesh)
{
    uint64_t count = 0;
    for (size_t face = 0; face < mesh.faceCount(); ++face) {
        const uint32_t* q = &mesh.indices[4 * face];
        glm::vec3 a = mesh.positions[q[0]], b = mesh.positions[q[1]], c = mesh.positions[q[2]],
                  d = mesh.positions[q[3]];
        glm::vec3 geometric = glm::cross(b - a, c - a) + glm::cross(c - a, d - a);
        glm::vec3 shading = mesh.normals[q[0]] + mesh.normals[q[1]] + mesh.normals[q[2]] + mesh.normals[q[3]];
        count += glm::dot(geometric, shading) < 0.0f;
    }
    return count;
}

} // namespace isoscope::test

#include <map>
#include <utility>
#include <vector>

#include "extract/extract.h"

namespace isoscope::test {

struct HalfedgeCheck {
    uint64_t broken = 0;           // a halfedge whose origin, face, next or twin breaks an invariant
    uint64_t manifoldEdges = 0, boundaryEdges = 0, nonManifoldEdges = 0;
    uint64_t badVertexHalfedges = 0;
    uint64_t vertexColorClashes = 0; // an edge whose two vertices share a colour
    uint64_t faceColorsAbove4 = 0;   // faces the reduction left an edge colour
    uint64_t faceColorConflicts = 0; // pairs of faces sharing an edge with one colour
    uint64_t faceColorConflictsOnManifoldEdges = 0;
};

// Checks the halfedges (and colours, where present) of a dual report
// against its quads: every invariant, counted where it fails.
inline HalfedgeCheck checkHalfedges(const ExtractionReport& report)
{
    HalfedgeCheck c;
    const Mesh& mesh = report.mesh;
    const std::vector<uint32_t>& he = report.halfedges;
    uint64_t faces = mesh.faceCount(), count = 4 * faces;
    auto origin = [&](uint64_t h) { return he[4 * h]; };
    auto next = [&](uint64_t h) { return he[4 * h + 2]; };
    auto twin = [&](uint64_t h) { return he[4 * h + 3]; };
    auto target = [&](uint64_t h) { return origin(next(h)); };
    if (he.size() != 4 * count) {
        c.broken = count + 1;
        return c;
    }
    // Every undirected edge's halfedges, from the quads alone.
    std::map<std::pair<uint32_t, uint32_t>, std::vector<uint64_t>> edges;
    for (uint64_t h = 0; h < count; ++h) {
        uint32_t a = mesh.indices[h], b = mesh.indices[4 * (h / 4) + (h + 1) % 4];
        edges[{std::min(a, b), std::max(a, b)}].push_back(h);
        bool ok = origin(h) == a && he[4 * h + 1] == h / 4 && next(h) == 4 * (h / 4) + (h + 1) % 4 &&
                  next(next(next(next(h)))) == h;
        if (twin(h) != kNoHalfedge)
            ok = ok && twin(h) < count && twin(h) != h && twin(twin(h)) == h && origin(twin(h)) == target(h) &&
                 target(twin(h)) == origin(h);
        c.broken += !ok;
    }
    for (auto& [edge, halfedges] : edges) {
        size_t n = halfedges.size(), forward = 0, twinned = 0;
        for (uint64_t h : halfedges) {
            forward += origin(h) == edge.first;
            twinned += twin(h) != kNoHalfedge;
        }
        // As many pairs as the two directions allow (twins run opposite ways,
        // so orientation is kept across the edge); an unpaired rest at the
        // volume's boundary (one quad, or three round a cut tunnel).
        c.broken += twinned != 2 * std::min(forward, n - forward);
        (n == 1 ? c.boundaryEdges : n == 2 ? c.manifoldEdges : c.nonManifoldEdges) += 1;
        if (!report.vertexColors.empty())
            c.vertexColorClashes += report.vertexColors[edge.first] == report.vertexColors[edge.second];
        if (!report.faceColors.empty())
            for (size_t i = 0; i < n; ++i)
                for (size_t j = i + 1; j < n; ++j)
                    if (report.faceColors[halfedges[i] / 4] == report.faceColors[halfedges[j] / 4]) {
                        ++c.faceColorConflicts;
                        c.faceColorConflictsOnManifoldEdges += n == 2;
                    }
    }
    std::vector<bool> used(mesh.positions.size(), false);
    for (uint32_t v : mesh.indices)
        used[v] = true;
    for (size_t v = 0; v < report.vertexHalfedges.size(); ++v) {
        uint32_t h = report.vertexHalfedges[v];
        c.badVertexHalfedges += used[v] ? (h >= count || origin(h) != v) : h != kNoHalfedge;
    }
    for (uint32_t color : report.faceColors)
        c.faceColorsAbove4 += color > 4;
    return c;
}

} // namespace isoscope::test
