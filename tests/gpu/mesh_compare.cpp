#include "mesh_compare.h"

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

    // The nearest vertex within `tolerance` spacings (max norm), or -1.
    int64_t nearest(const glm::vec3& p, double tolerance, double& error) const
    {
        std::array<int64_t, 3> c = cellOf(p);
        int64_t best = -1;
        double bestError = std::numeric_limits<double>::infinity();
        for (int dz = -1; dz <= 1; ++dz)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    auto it = cells_.find(key({c[0] + dx, c[1] + dy, c[2] + dz}));
                    if (it == cells_.end())
                        continue;
                    for (uint32_t i : it->second) {
                        double e = distance(p, mesh_->positions[i]);
                        if (e < bestError) {
                            bestError = e;
                            best = i;
                        }
                    }
                }
        if (bestError > tolerance)
            return -1;
        error = bestError;
        return best;
    }

    double distance(const glm::vec3& a, const glm::vec3& b) const
    {
        double d = 0.0;
        for (int i = 0; i < 3; ++i)
            d = std::max(d, std::abs(double(a[i]) - b[i]) / volume_.spacing[i]);
        return d;
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

std::vector<std::array<uint32_t, 4>> canonicalFaces(const Mesh& mesh, const std::vector<int64_t>& map)
{
    std::vector<std::array<uint32_t, 4>> faces;
    uint32_t n = mesh.faceSize;
    for (size_t f = 0; f + n <= mesh.indices.size(); f += n) {
        std::array<uint32_t, 4> face{0, 0, 0, UINT32_MAX};
        for (uint32_t k = 0; k < n; ++k) {
            int64_t v = map.empty() ? int64_t(mesh.indices[f + k]) : map[mesh.indices[f + k]];
            face[k] = v < 0 ? UINT32_MAX : uint32_t(v);
        }
        std::rotate(face.begin(), std::min_element(face.begin(), face.begin() + n), face.begin() + n);
        faces.push_back(face);
    }
    std::sort(faces.begin(), faces.end());
    return faces;
}

} // namespace

MeshComparison compareMeshes(const Mesh& candidate, const Mesh& reference, const Volume& volume, double tolerance)
{
    MeshComparison result;
    result.candidateFaces = candidate.faceCount();
    result.referenceFaces = reference.faceCount();
    result.candidateVertices = candidate.positions.size();
    result.referenceVertices = reference.positions.size();

    PositionIndex referenceIndex(reference, volume);
    std::vector<int64_t> map(candidate.positions.size(), -1);
    for (size_t i = 0; i < candidate.positions.size(); ++i) {
        double error = 0.0;
        map[i] = referenceIndex.nearest(candidate.positions[i], tolerance, error);
        if (map[i] < 0)
            ++result.unmatchedCandidateVertices;
        else
            result.maxPositionError = std::max(result.maxPositionError, error);
    }
    PositionIndex candidateIndex(candidate, volume);
    for (const glm::vec3& p : reference.positions) {
        double error = 0.0;
        if (candidateIndex.nearest(p, tolerance, error) < 0)
            ++result.unmatchedReferenceVertices;
    }

    std::vector<std::array<uint32_t, 4>> mine = canonicalFaces(candidate, map);
    std::vector<std::array<uint32_t, 4>> theirs = canonicalFaces(reference, {});
    std::vector<std::array<uint32_t, 4>> missing;
    std::set_difference(mine.begin(), mine.end(), theirs.begin(), theirs.end(), std::back_inserter(missing));
    result.facesNotInReference = missing.size();

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
        << ", max position error " << maxPositionError << " spacings; euler " << candidate.eulerCharacteristic
        << " (" << reference.eulerCharacteristic << "), boundary edges " << candidate.boundaryEdges << " ("
        << reference.boundaryEdges << "), non-manifold edges " << candidate.nonManifoldEdges << " ("
        << reference.nonManifoldEdges << ")";
    return out.str();
}

} // namespace isoscope::test
