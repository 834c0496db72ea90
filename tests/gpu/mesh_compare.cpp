#include "mesh_compare.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <sstream>
#include <unordered_map>
#include <vector>

namespace isoscope::test {

namespace {

// Buckets positions on a grid of cells a quarter spacing wide, so a nearest
// neighbour within the tolerance is in the cell or one of its 26 neighbours.
class PositionIndex {
public:
    PositionIndex(const Mesh& mesh, const Volume& volume) : volume_(volume)
    {
        for (uint32_t i = 0; i < mesh.positions.size(); ++i)
            cells_[key(cellOf(mesh.positions[i]))].push_back(i);
        mesh_ = &mesh;
    }

    // Every vertex within the tolerance (see mesh_compare.h): near-coincident
    // vertices (edges crossed next to a shared grid point) can all be candidates.
    std::vector<uint32_t> allWithin(const glm::vec3& p, double tolerance) const
    {
        std::vector<uint32_t> found;
        std::array<int64_t, 3> c = cellOf(p);
        for (int dz = -1; dz <= 1; ++dz)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    auto it = cells_.find(key({c[0] + dx, c[1] + dy, c[2] + dz}));
                    if (it == cells_.end())
                        continue;
                    for (uint32_t i : it->second)
                        if (relativeError(p, mesh_->positions[i], tolerance) <= 1.0)
                            found.push_back(i);
                }
        return found;
    }

    // The nearest of them, or -1; `error` is its distance in spacings (max norm).
    int64_t nearest(const glm::vec3& p, double tolerance, double& error) const
    {
        int64_t best = -1;
        error = std::numeric_limits<double>::infinity();
        for (uint32_t i : allWithin(p, tolerance)) {
            double e = distance(p, mesh_->positions[i]);
            if (e < error) {
                error = e;
                best = i;
            }
        }
        return best;
    }

    double distance(const glm::vec3& a, const glm::vec3& b) const
    {
        double d = 0.0;
        for (int i = 0; i < 3; ++i)
            d = std::max(d, std::abs(double(a[i]) - b[i]) / volume_.spacing[i]);
        return d;
    }

    // The difference as a multiple of what is allowed on each axis: the
    // tolerance in spacings, or where more, 4 float32 ulps of the world
    // coordinate or 2 of the grid index: the extractors round x + t at the
    // index's scale (half an ulp, 1.5e-5 spacings an ulp past index 128)
    // before the world conversion rounds again, even where the world
    // coordinate, and so its ulp, is small.
    static double ulp(double x) { return std::nextafter(float(std::abs(x)), INFINITY) - float(std::abs(x)); }
    double relativeError(const glm::vec3& a, const glm::vec3& b, double tolerance) const
    {
        double e = 0.0;
        for (int i = 0; i < 3; ++i) {
            double s = volume_.spacing[i], o = volume_.origin[i];
            double world = std::max(std::abs(a[i]), std::abs(b[i]));
            double index = std::max(std::abs((a[i] - o) / s), std::abs((b[i] - o) / s));
            double allowed = std::max({tolerance * s, 4.0 * ulp(world), 2.0 * ulp(index) * s});
            e = std::max(e, std::abs(double(a[i]) - b[i]) / allowed);
        }
        return e;
    }

private:
    std::array<int64_t, 3> cellOf(const glm::vec3& p) const
    {
        std::array<int64_t, 3> c;
        for (int i = 0; i < 3; ++i)
            c[i] = int64_t(std::floor((double(p[i]) - volume_.origin[i]) / volume_.spacing[i] * 4.0));
        return c;
    }
    static uint64_t key(std::array<int64_t, 3> c)
    {
        return (uint64_t(c[0] + (1 << 20)) << 42) ^ (uint64_t(c[1] + (1 << 20)) << 21) ^ uint64_t(c[2] + (1 << 20));
    }

    const Volume& volume_;
    const Mesh* mesh_ = nullptr;
    std::unordered_map<uint64_t, std::vector<uint32_t>> cells_;
};

} // namespace

MeshComparison compareMeshes(const Mesh& candidate, const Mesh& reference, const Volume& volume, double tolerance)
{
    MeshComparison result;
    result.candidateFaces = candidate.faceCount();
    result.referenceFaces = reference.faceCount();
    result.candidateVertices = candidate.positions.size();
    result.referenceVertices = reference.positions.size();

    PositionIndex referenceIndex(reference, volume);
    bool withNormals = candidate.normals.size() == candidate.positions.size() &&
                       reference.normals.size() == reference.positions.size();
    const double cos25 = std::cos(25.0 * 3.14159265358979 / 180.0);
    for (size_t i = 0; i < candidate.positions.size(); ++i) {
        double error = 0.0;
        int64_t match = referenceIndex.nearest(candidate.positions[i], tolerance, error);
        if (match < 0) {
            ++result.unmatchedCandidateVertices;
            continue;
        }
        result.maxPositionError = std::max(result.maxPositionError, error);
        if (withNormals) {
            ++result.normalsCompared;
            if (glm::dot(glm::dvec3(candidate.normals[i]), glm::dvec3(reference.normals[size_t(match)])) < cos25)
                ++result.normalsApart;
        }
    }
    PositionIndex candidateIndex(candidate, volume);
    for (const glm::vec3& p : reference.positions) {
        double error = 0.0;
        if (candidateIndex.nearest(p, tolerance, error) < 0)
            ++result.unmatchedReferenceVertices;
    }

    // A candidate face is in the reference when some reference face has, in
    // the same cyclic order, a vertex within the tolerance of each of its own.
    std::vector<std::vector<uint32_t>> facesOfVertex(reference.positions.size());
    uint32_t n = reference.faceSize;
    for (size_t f = 0; f + n <= reference.indices.size(); f += n)
        facesOfVertex[reference.indices[f]].push_back(uint32_t(f));
    for (size_t f = 0; f + n <= candidate.indices.size(); f += n) {
        bool found = false;
        for (uint32_t start = 0; start < n && !found; ++start) {
            glm::vec3 first = candidate.positions[candidate.indices[f + start]];
            for (uint32_t r : referenceIndex.allWithin(first, tolerance)) {
                for (uint32_t g : facesOfVertex[r]) {
                    bool same = true;
                    for (uint32_t k = 1; k < n && same; ++k)
                        same = referenceIndex.relativeError(candidate.positions[candidate.indices[f + (start + k) % n]],
                                                            reference.positions[reference.indices[g + k]],
                                                            tolerance) <= 1.0;
                    if (same) {
                        found = true;
                        break;
                    }
                }
                if (found)
                    break;
            }
        }
        if (!found)
            ++result.facesNotInReference;
    }

    result.candidate = checkMesh(candidate);
    result.reference = checkMesh(reference);
    return result;
}

std::string MeshComparison::summary() const
{
    std::ostringstream out;
    out << "faces " << candidateFaces << " (reference " << referenceFaces << "), vertices " << candidateVertices
        << " (reference " << referenceVertices << "), unmatched vertices " << unmatchedCandidateVertices << " / "
        << unmatchedReferenceVertices << ", faces not in reference " << facesNotInReference
        << ", max position error " << maxPositionError << " spacings, normals over 25 degrees apart " << normalsApart
        << " of " << normalsCompared << "; euler " << candidate.eulerCharacteristic
        << " (" << reference.eulerCharacteristic << "), boundary edges " << candidate.boundaryEdges << " ("
        << reference.boundaryEdges << "), non-manifold edges " << candidate.nonManifoldEdges << " ("
        << reference.nonManifoldEdges << ")";
    return out.str();
}

} // namespace isoscope::test
