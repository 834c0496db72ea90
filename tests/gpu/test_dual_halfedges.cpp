// The dual method's halfedges and colours (--halfedges, --colors), checked
// against its quads: twin(twin(h)) = h, next four times returns h, twins run
// opposite ways (so orientation is kept across every edge), boundary edges
// have none, non-manifold edges (tunnels) pair their four halfedges; each
// vertex's halfedge leaves it; no edge joins two vertices of one colour; no
// two faces sharing an edge have one face colour.
#include <catch2/catch.hpp>

#include "dual_checks.h"
#include "extract/extract.h"
#include "extract_test_support.h"
#include "gpu_test_context.h"
#include "volume/synthetic.h"

using namespace isoscope;

namespace {

test::HalfedgeCheck extractAndCheck(const Volume& volume, float iso, bool colors, const ExtractOptions* given = nullptr)
{
    INFO(volume.source << " at iso " << iso);
    ExtractOptions options;
    options.method = "dual";
    options.halfedges = true;
    options.colors = colors;
    if (given)
        options = *given;
    ExtractionReport report = extractIsosurface(test::gpuContext(), volume, iso, options);
    REQUIRE(report.mesh.faceCount() > 0);
    REQUIRE(report.halfedges.size() == 16 * report.mesh.faceCount());
    REQUIRE(report.vertexHalfedges.size() == report.mesh.positions.size());
    test::HalfedgeCheck c = test::checkHalfedges(report);
    INFO("edges: " << c.manifoldEdges << " manifold, " << c.boundaryEdges << " boundary, " << c.nonManifoldEdges
                   << " non-manifold");
    REQUIRE(c.broken == 0);
    REQUIRE(c.badVertexHalfedges == 0);
    if (colors) {
        REQUIRE(report.vertexColors.size() == report.mesh.positions.size());
        REQUIRE(report.faceColors.size() == report.mesh.faceCount());
        for (uint32_t color : report.vertexColors)
            REQUIRE(color < 8);
        REQUIRE(c.vertexColorClashes == 0);
        REQUIRE(c.faceColorsAbove4 == 0);
        REQUIRE(c.faceColorConflictsOnManifoldEdges == 0);
        if (c.faceColorConflicts)
            WARN(volume.source << " at " << iso << ": " << c.faceColorConflicts
                               << " pairs of faces on non-manifold edges share a colour (none of the five was left)");
    } else {
        REQUIRE(report.vertexColors.empty());
    }
    return c;
}

} // namespace

TEST_CASE("dual halfedges keep every invariant on closed and open surfaces, coloured or not",
          "[gpu][dual][halfedges]")
{
    test::HalfedgeCheck sphere = extractAndCheck(makeSyntheticVolume("sphere:33x29x31"), 0.71f, false);
    REQUIRE(sphere.boundaryEdges == 0);
    REQUIRE(sphere.nonManifoldEdges == 0);
    extractAndCheck(makeSyntheticVolume("torus:41x38x23"), 0.04f, true);
    extractAndCheck(makeSyntheticVolume("cayley:37"), -0.012f, true);
    extractAndCheck(makeSyntheticVolume("gyroid:35"), 0.05f, true);
    extractAndCheck(makeSyntheticVolume("marschner-lobb:41"), 0.5f, true);
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("dual halfedges and colours grow with the mesh when the first guess is too small",
          "[gpu][dual][halfedges]")
{
    // The gyroid crosses far more cells than the guess allows for a smooth
    // surface, and the table starts tiny: everything grows, then fits.
    ExtractOptions options;
    options.method = "dual";
    options.colors = true;
    options.hashBuckets = 256;
    Volume volume = makeSyntheticVolume("gyroid:48");
    extractAndCheck(volume, 0.05f, true, &options);
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("dual halfedges pair the four halfedges of non-manifold tunnel edges on the real datasets",
          "[gpu][dual][halfedges][datasets]")
{
    uint64_t nonManifold = 0;
    bool found = test::forEachRealDataset([&](const Volume& volume, float iso, const Mesh&) {
        nonManifold += extractAndCheck(volume, iso, true).nonManifoldEdges;
    });
    if (found)
        REQUIRE(nonManifold > 0); // the scans have tunnels between two cells: those edges were checked
    REQUIRE_NO_VALIDATION_MESSAGES();
}
