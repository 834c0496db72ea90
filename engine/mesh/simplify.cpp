#include "mesh/simplify.h"

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <glm/geometric.hpp>
#include <meshoptimizer.h>

#include "core/error.h"

namespace isoscope {

namespace {

// Renumbers the vertices by `remap` (old vertex -> new, meshoptimizer's
// remap table) and keeps the first `count`: positions, normals, indices.
void applyVertexRemap(Mesh& mesh, const std::vector<uint32_t>& remap, size_t count)
{
    meshopt_remapIndexBuffer(mesh.indices.data(), mesh.indices.data(), mesh.indices.size(), remap.data());
    MeshArray<glm::vec3> positions(count); // every value written by the remap
    meshopt_remapVertexBuffer(positions.data(), mesh.positions.data(), mesh.positions.size(), sizeof(glm::vec3),
                              remap.data());
    if (!mesh.normals.empty()) {
        MeshArray<glm::vec3> normals(count);
        meshopt_remapVertexBuffer(normals.data(), mesh.normals.data(), mesh.normals.size(), sizeof(glm::vec3),
                                  remap.data());
        mesh.normals = std::move(normals);
    }
    mesh.positions = std::move(positions);
}

// One vertex per distinct position, triangles only; normals follow their first vertex.
void weldTriangles(Mesh& mesh)
{
    if (mesh.faceSize == 4) {
        MeshArray<uint32_t> triangles;
        triangles.reserve(mesh.faceCount() * 6);
        for (uint64_t face = 0; face < mesh.faceCount(); ++face) {
            const uint32_t* q = mesh.indices.data() + face * 4;
            triangles.insert(triangles.end(), {q[0], q[1], q[2], q[0], q[2], q[3]});
        }
        mesh.indices = std::move(triangles);
        mesh.faceSize = 3;
    }
    std::vector<uint32_t> remap(mesh.positions.size());
    size_t unique = meshopt_generateVertexRemap(remap.data(), mesh.indices.data(), mesh.indices.size(),
                                                mesh.positions.data(), mesh.positions.size(), sizeof(glm::vec3));
    applyVertexRemap(mesh, remap, unique);
}

// Drops vertices no triangle uses.
void compactVertices(Mesh& mesh)
{
    std::vector<uint32_t> remap(mesh.positions.size());
    size_t used = meshopt_optimizeVertexFetchRemap(remap.data(), mesh.indices.data(), mesh.indices.size(),
                                                   mesh.positions.size());
    applyVertexRemap(mesh, remap, used);
}

// Edge collapses can fold a thin part into two triangles on the same three
// vertices (a zero-volume "flap"), which makes their edges used by four
// triangles. A pair of opposite windings is removed (the surface on either
// side still closes up); of same-wound copies one is kept.
void removeFlaps(Mesh& mesh)
{
    struct Keyed {
        std::array<uint32_t, 3> sorted;
        bool even; // winding: an even permutation of the sorted vertices
        size_t triangle;
    };
    std::vector<Keyed> keyed;
    size_t count = mesh.indices.size() / 3;
    for (size_t t = 0; t < count; ++t) {
        std::array<uint32_t, 3> v{mesh.indices[3 * t], mesh.indices[3 * t + 1], mesh.indices[3 * t + 2]};
        // Rotate the smallest first; then the order of the other two is the winding.
        size_t first = size_t(std::min_element(v.begin(), v.end()) - v.begin());
        std::array<uint32_t, 3> rotated{v[first], v[(first + 1) % 3], v[(first + 2) % 3]};
        bool even = rotated[1] < rotated[2];
        keyed.push_back({{rotated[0], std::min(rotated[1], rotated[2]), std::max(rotated[1], rotated[2])}, even, t});
    }
    std::sort(keyed.begin(), keyed.end(), [](const Keyed& a, const Keyed& b) { return a.sorted < b.sorted; });
    std::vector<bool> drop(count, false);
    for (size_t begin = 0; begin < keyed.size();) {
        size_t end = begin;
        int even = 0, odd = 0;
        while (end < keyed.size() && keyed[end].sorted == keyed[begin].sorted)
            (keyed[end++].even ? even : odd)++;
        // Keep |even - odd| triangles of the majority winding: opposite pairs cancel.
        int keepEven = std::max(0, even - odd) ? 1 : 0, keepOdd = std::max(0, odd - even) ? 1 : 0;
        for (size_t i = begin; i < end; ++i) {
            int& keep = keyed[i].even ? keepEven : keepOdd;
            drop[keyed[i].triangle] = keep-- <= 0;
        }
        begin = end;
    }
    MeshArray<uint32_t> kept;
    kept.reserve(mesh.indices.size());
    for (size_t t = 0; t < count; ++t)
        if (!drop[t])
            kept.insert(kept.end(), mesh.indices.begin() + std::ptrdiff_t(3 * t),
                        mesh.indices.begin() + std::ptrdiff_t(3 * t + 3));
    mesh.indices = std::move(kept);
}

void faceNormals(Mesh& mesh)
{
    MeshArray<glm::vec3> normals(mesh.positions.size(), glm::vec3(0.0f));
    for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
        glm::vec3 a = mesh.positions[mesh.indices[t]], b = mesh.positions[mesh.indices[t + 1]],
                  c = mesh.positions[mesh.indices[t + 2]];
        glm::vec3 areaNormal = glm::cross(b - a, c - a);
        for (int corner = 0; corner < 3; ++corner)
            normals[mesh.indices[t + corner]] += areaNormal;
    }
    for (glm::vec3& n : normals) {
        float length = glm::length(n);
        n = length > 0.0f ? n / length : glm::vec3(0.0f, 0.0f, 1.0f);
    }
    mesh.normals = std::move(normals);
}

} // namespace

MeshReduction simplifyMesh(Mesh& mesh, double ratio)
{
    if (!(ratio > 0.0 && ratio <= 1.0))
        fail("--simplify " + std::to_string(ratio) + ": the ratio must be in (0, 1], e.g. 0.25 for a quarter of the "
             "triangles");
    MeshReduction reduction;
    weldTriangles(mesh);
    reduction.trianglesBefore = mesh.faceCount();
    reduction.verticesBefore = mesh.positions.size();
    size_t target = size_t(double(mesh.indices.size() / 3) * ratio) * 3;
    MeshArray<uint32_t> simplified(mesh.indices.size()); // the first `count` written by meshopt_simplify
    float error = 0.0f;
    constexpr float maxRelativeError = 0.01f;
    size_t count = meshopt_simplify(simplified.data(), mesh.indices.data(), mesh.indices.size(),
                                    reinterpret_cast<const float*>(mesh.positions.data()), mesh.positions.size(),
                                    sizeof(glm::vec3), target, maxRelativeError, meshopt_SimplifyLockBorder, &error);
    simplified.resize(count);
    mesh.indices = std::move(simplified);
    removeFlaps(mesh);
    compactVertices(mesh);
    reduction.trianglesAfter = mesh.faceCount();
    reduction.verticesAfter = mesh.positions.size();
    reduction.relativeError = error;
    return reduction;
}

void smoothMesh(Mesh& mesh, uint32_t iterations)
{
    if (iterations == 0)
        return;
    weldTriangles(mesh);
    size_t n = mesh.positions.size();
    // Edges, each once, and the border: edges used by one triangle only.
    std::map<std::pair<uint32_t, uint32_t>, int> edgeUses;
    for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3)
        for (int e = 0; e < 3; ++e) {
            uint32_t a = mesh.indices[t + e], b = mesh.indices[t + (e + 1) % 3];
            ++edgeUses[{std::min(a, b), std::max(a, b)}];
        }
    std::vector<std::vector<uint32_t>> neighbours(n);
    std::vector<bool> fixed(n, false);
    for (const auto& [edge, uses] : edgeUses) {
        neighbours[edge.first].push_back(edge.second);
        neighbours[edge.second].push_back(edge.first);
        if (uses == 1)
            fixed[edge.first] = fixed[edge.second] = true;
    }
    MeshArray<glm::vec3> moved(n); // every value written before it is read
    auto step = [&](float factor) {
        for (size_t v = 0; v < n; ++v) {
            moved[v] = mesh.positions[v];
            if (fixed[v] || neighbours[v].empty())
                continue;
            glm::vec3 mean(0.0f);
            for (uint32_t u : neighbours[v])
                mean += mesh.positions[u];
            mean /= float(neighbours[v].size());
            moved[v] += factor * (mean - mesh.positions[v]);
        }
        mesh.positions.swap(moved);
    };
    for (uint32_t i = 0; i < iterations; ++i) {
        step(0.5f);   // λ: shrinks
        step(-0.53f); // μ: inflates back, |μ| > λ (Taubin 1995, section 4)
    }
    if (!mesh.normals.empty())
        faceNormals(mesh);
}

} // namespace isoscope
