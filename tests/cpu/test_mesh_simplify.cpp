// Simplification and smoothing for export (mesh/simplify.h). Their checks on
// real data (engine CT borders and area, no shrinking) are
// tests/vtk/test_simplify_smooth.py.
#include <catch2/catch.hpp>

#include <map>

#include <glm/geometric.hpp>

#include "core/error.h"
#include "extract/cpu/marching_cubes.h"
#include "mesh/simplify.h"
#include "volume/synthetic.h"

using namespace isoscope;

namespace {

// Edges used by one triangle only: none on a closed surface.
size_t borderEdges(const Mesh& mesh)
{
    std::map<std::pair<uint32_t, uint32_t>, int> uses;
    for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3)
        for (int e = 0; e < 3; ++e) {
            uint32_t a = mesh.indices[t + e], b = mesh.indices[t + (e + 1) % 3];
            ++uses[{std::min(a, b), std::max(a, b)}];
        }
    size_t border = 0;
    for (const auto& [edge, count] : uses)
        border += count == 1;
    return border;
}

} // namespace

TEST_CASE("simplifying a closed torus halves its triangles and keeps it closed", "[mesh]")
{
    Mesh mesh = extractMarchingCubes(makeSyntheticVolume("torus:48"), 0.05f);
    REQUIRE(borderEdges(mesh) == 0);
    uint64_t before = mesh.faceCount();
    MeshReduction reduction = simplifyMesh(mesh, 0.5);
    CHECK(reduction.trianglesBefore == before);
    CHECK(reduction.trianglesAfter == mesh.faceCount());
    CHECK(mesh.faceCount() <= before / 2);
    CHECK(mesh.faceCount() >= before / 3);
    CHECK(borderEdges(mesh) == 0);
    CHECK(mesh.normals.size() == mesh.positions.size());
    for (uint32_t index : mesh.indices)
        CHECK(index < mesh.positions.size());
}

TEST_CASE("simplify refuses ratios that are not above 0 and at most 1", "[mesh]")
{
    Mesh mesh = extractMarchingCubes(makeSyntheticVolume("sphere:16"), 0.6f);
    for (double ratio : {0.0, -0.5, 1.5}) {
        CAPTURE(ratio);
        CHECK_THROWS_AS(simplifyMesh(mesh, ratio), Error);
    }
}

TEST_CASE("smoothing keeps the faces and recomputes unit normals", "[mesh]")
{
    Mesh mesh = extractMarchingCubes(makeSyntheticVolume("torus:32"), 0.05f);
    Mesh smoothed = mesh;
    smoothMesh(smoothed, 5);
    CHECK(smoothed.faceCount() == mesh.faceCount()); // welded already: only renumbered
    CHECK(smoothed.positions.size() == mesh.positions.size());
    REQUIRE(smoothed.normals.size() == smoothed.positions.size());
    for (const glm::vec3& n : smoothed.normals)
        CHECK(glm::length(n) == Approx(1.0f));
    CHECK(smoothed.positions != mesh.positions);
    Mesh unchanged = mesh;
    smoothMesh(unchanged, 0);
    CHECK(unchanged.positions == mesh.positions);
}
