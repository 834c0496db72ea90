// `--method dual`: Dual Marching Cubes quad meshes, checked against what the
// volume alone says (dual_checks.h) and against the Marching Cubes mesh of
// the same input: closed surfaces give closed, consistently oriented quad
// meshes of the right Euler characteristic, one quad per crossed interior
// grid edge, every vertex on its cell's trilinear isosurface, and fewer
// vertices than Marching Cubes.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <optional>

#include "dual_checks.h"
#include "extract/cpu/marching_cubes.h"
#include "extract/extract.h"
#include "extract/gpu_extractor.h"
#include "extract_test_support.h"
#include "gpu_test_context.h"
#include "mesh/gpu_mesh.h"
#include "mesh/mesh_check.h"
#include "render/camera.h"
#include "scene/render_mesh.h"
#include "volume/quantize.h"
#include "volume/synthetic.h"

using namespace isoscope;

namespace {

ExtractOptions dualOptions()
{
    ExtractOptions options;
    options.method = "dual";
    return options;
}

uint64_t workCount(const ExtractionReport& report, const std::string& name)
{
    for (auto& [key, value] : report.workCounts)
        if (key == name)
            return value;
    FAIL("no work count " << name);
    return 0;
}

// Extracts and checks everything a dual mesh must satisfy; `euler` where the
// surface is closed inside the volume. Returns the dual report.
ExtractionReport checkDualMesh(const Volume& volume, float iso, std::optional<int64_t> euler,
                               const Mesh* reference, const ExtractOptions& options = dualOptions())
{
    INFO(volume.source << " at iso " << iso);
    ExtractionReport report = extractIsosurface(test::gpuContext(), volume, iso, options);
    const Mesh& mesh = report.mesh;
    REQUIRE(mesh.faceSize == 4);
    REQUIRE(report.faceCount == mesh.faceCount());
    REQUIRE(mesh.normals.size() == mesh.positions.size());

    // One quad per crossed interior grid edge, none lost in the hash table.
    REQUIRE(mesh.faceCount() == test::crossedInteriorEdges(volume, iso));
    REQUIRE(workCount(report, "edges_stored") == mesh.faceCount());
    REQUIRE(workCount(report, "incomplete_quads") == 0);
    REQUIRE(workCount(report, "inserts_failed") == 0);

    MeshReport topology = checkMesh(mesh);
    INFO("faces " << topology.faces << ", boundary edges " << topology.boundaryEdges << ", non-manifold edges "
                  << topology.nonManifoldEdges << ", inconsistent " << topology.inconsistentEdges << ", euler "
                  << topology.eulerCharacteristic);
    REQUIRE(topology.inconsistentEdges == 0);
    if (euler) {
        REQUIRE(topology.boundaryEdges == 0);
        REQUIRE(topology.nonManifoldEdges == 0);
        REQUIRE(topology.eulerCharacteristic == *euler);
    }
    if (topology.nonManifoldEdges)
        WARN(volume.source << " at " << iso << ": " << topology.nonManifoldEdges
                           << " non-manifold edges (tunnels between two cells)");

    test::VertexOnSurface onSurface = test::checkVerticesOnSurface(volume, mesh, iso);
    INFO("worst |f(v) - iso| / cell range " << onSurface.worstRelative << ", fallbacks "
                                             << workCount(report, "fallback_vertices"));
    REQUIRE(onSurface.outsideGrid == 0);
    REQUIRE(onSurface.offSurface == 0);
    REQUIRE(test::quadsNotAroundAnEdge(volume, mesh) == 0);
    for (const glm::vec3& n : mesh.normals)
        REQUIRE(std::abs(glm::length(n) - 1.0f) < 1e-3f);
    // Faces face out of the inside, as the shading normals do: on smooth
    // closed surfaces all but a few quads folded where the surface bends
    // within a cell; on noisy data and open surfaces most of them (central
    // differences and the quads' corners then disagree more often).
    uint64_t inward = test::quadsFacingInward(mesh);
    INFO(inward << " quads facing against their vertices' normals");
    REQUIRE(inward * (euler ? 50 : 4) <= mesh.faceCount());

    // A quad per crossed interior edge, and Marching Cubes a vertex per
    // crossed edge: a closed genus-g dual mesh has V = quads + 2 - 2g
    // vertices, so it cannot have fewer than the welded MC mesh (only than
    // its triangles, about half). The count is reported, and bounded.
    if (euler && topology.nonManifoldEdges == 0)
        REQUIRE(int64_t(topology.referencedVertices) == int64_t(mesh.faceCount()) + *euler);
    if (!reference)
        return report;
    REQUIRE(mesh.positions.size() < reference->faceCount());
    WARN(volume.source << " at " << iso << ": " << mesh.positions.size() << " dual vertices against "
                       << reference->positions.size() << " Marching Cubes vertices (ratio "
                       << double(mesh.positions.size()) / double(reference->positions.size()) << "), "
                       << mesh.faceCount() << " quads against " << reference->faceCount() << " triangles");
    return report;
}

} // namespace

TEST_CASE("dual extraction gives closed quad meshes: a sphere of Euler characteristic 2, a torus of 0",
          "[gpu][dual][extract]")
{
    for (float iso : {0.3f, 0.71f, 0.93f}) {
        Volume sphere = makeSyntheticVolume("sphere:33x29x31");
        Mesh reference = extractMarchingCubes(sphere, iso);
        checkDualMesh(sphere, iso, 2, &reference);
    }
    for (float iso : {0.01f, 0.04f}) {
        Volume torus = makeSyntheticVolume("torus:41x38x23");
        Mesh reference = extractMarchingCubes(torus, iso);
        checkDualMesh(torus, iso, 0, &reference);
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("dual extraction keeps every vertex on its cell's trilinear surface on every synthetic field",
          "[gpu][dual][extract]")
{
    // Surfaces that leave the volume (open meshes) and the Cayley cubic's
    // singular points, where asymptotic-decider faces are frequent.
    struct FieldCase {
        const char* spec;
        std::array<float, 2> isos;
    };
    for (FieldCase field : {FieldCase{"cayley:37", {-0.012f, 0.5f}}, FieldCase{"gyroid:35", {-0.6f, 0.05f}},
                            FieldCase{"marschner-lobb:41", {0.25f, 0.5f}}, FieldCase{"sphere:24", {1.2f, 1.5f}}}) {
        Volume volume = makeSyntheticVolume(field.spec);
        for (float iso : field.isos) {
            Mesh reference = extractMarchingCubes(volume, iso);
            checkDualMesh(volume, iso, std::nullopt, &reference);
        }
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("dual extraction of uint8 volumes, rows on word boundaries and off them, is a closed torus",
          "[gpu][dual][extract]")
{
    // The cells pass reads uint8 rows that start on a word four samples at a
    // time, and other rows sample by sample: widths 40 and 37 take both.
    for (const char* spec : {"torus:40x36x30", "torus:37x36x30"}) {
        Volume field = makeSyntheticVolume(spec);
        float iso = float(quantizedIsovalue(field, 0.04, ScalarType::UInt8));
        Volume volume = quantize(field, ScalarType::UInt8);
        Mesh reference = extractMarchingCubes(volume, iso);
        checkDualMesh(volume, iso, 0, &reference);
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("dual extraction handles thin volumes, non-finite samples and a surface in every cell",
          "[gpu][dual][extract]")
{
    for (const char* spec : {"sphere:2x17x13", "sphere:3x3x3", "gyroid:65x3x4"}) {
        Volume volume = makeSyntheticVolume(spec);
        float iso = float(0.5 * (volume.stats.min + volume.stats.max));
        ExtractionReport report = extractIsosurface(test::gpuContext(), volume, iso, dualOptions());
        REQUIRE(report.mesh.faceCount() == test::crossedInteriorEdges(volume, iso));
        REQUIRE(checkMesh(report.mesh).inconsistentEdges == 0);
    }
    Volume nonFinite = test::sphereWithNonFiniteSamples();
    ExtractionReport report = extractIsosurface(test::gpuContext(), nonFinite, 0.6f, dualOptions());
    REQUIRE(report.mesh.faceCount() == test::crossedInteriorEdges(nonFinite, 0.6f));
    for (const glm::vec3& p : report.mesh.positions)
        REQUIRE((std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z)));
    // A checkerboard: every cell crosses, every face ambiguous (up to four
    // polygons a cell: more vertices than Marching Cubes has, not compared).
    Volume checker = test::functionVolume({9, 8, 7}, [](uint32_t x, uint32_t y, uint32_t z) {
        return float((x + y + z) % 2) + 0.01f * float(x);
    });
    checkDualMesh(checker, 0.5f, std::nullopt, nullptr);
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("a dual edge hash table too small for the surface grows and the extraction is redone, nothing lost",
          "[gpu][dual][extract]")
{
    Volume volume = makeSyntheticVolume("gyroid:30");
    float iso = 0.05f;
    ExtractOptions small = dualOptions();
    small.hashBuckets = 256; // thousands of crossed edges
    ExtractionReport grown = checkDualMesh(volume, iso, std::nullopt, nullptr, small);
    REQUIRE(grown.overflowRetries >= 1);
    REQUIRE(workCount(grown, "hash_buckets") >= 2 * grown.faceCount);
    ExtractionReport guessed = extractIsosurface(test::gpuContext(), volume, iso, dualOptions());
    REQUIRE(guessed.overflowRetries == 0);
    REQUIRE(guessed.faceCount == grown.faceCount);
    REQUIRE(guessed.vertexCount == grown.vertexCount);
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("dual extraction on the real datasets: quads on crossed edges, vertices on the surface, fewer than MC",
          "[gpu][dual][extract][datasets]")
{
    test::forEachRealDataset([](const Volume& volume, float iso, const Mesh& reference) {
        checkDualMesh(volume, iso, std::nullopt, &reference);
    });
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("the raster pass draws a dual quad mesh from its device buffers as two triangles a quad",
          "[gpu][dual][render]")
{
    // Extract and draw in one graph (the mesh far too small at first: the
    // frame is redone), against the read-back quads split on the CPU into
    // (a, b, c), (a, c, d) and drawn as a triangle mesh: the same pixels.
    Context& context = test::gpuContext();
    Volume volume = makeSyntheticVolume("torus:40x36x30");
    float iso = 0.04f;
    MeshDrawParams params;
    params.camera = frameBounds(glm::vec3(-1.0f), glm::vec3(1.0f), 1.0f, 35.0f, 25.0f, 40.0f, 0.0f);
    const VkExtent2D extent{96, 96};

    Mesh quads = extractIsosurface(context, volume, iso, dualOptions()).mesh;
    Mesh triangles = quads;
    triangles.faceSize = 3;
    triangles.indices.clear();
    for (size_t f = 0; f < quads.faceCount(); ++f) {
        const uint32_t* q = &quads.indices[4 * f];
        triangles.indices.insert(triangles.indices.end(), {q[0], q[1], q[2], q[0], q[2], q[3]});
    }
    GpuMesh triangleMesh = uploadMesh(context, triangles);
    RenderedImage reference = renderMeshImage(context, triangleMesh, params, extent);

    ExtractOptions options = dualOptions();
    PreparedExtraction prepared = prepareGpuExtraction(context, volume, options);
    GpuMesh mesh = createGpuMesh(context, 64, 64, 4);
    GpuMeshCounters counters{};
    RenderedImage image = renderExtractionImage(context, *prepared.extractor, iso, mesh, params, extent, counters);
    REQUIRE(counters.overflow == 0);
    REQUIRE(counters.faceCount == quads.faceCount());
    REQUIRE(counters.draw.indexCount == 4 * counters.faceCount);
    uint64_t different = 0, covered = 0;
    const uint8_t* background = image.image.at(0, 0);
    for (uint32_t y = 0; y < extent.height; ++y)
        for (uint32_t x = 0; x < extent.width; ++x) {
            covered += std::memcmp(reference.image.at(x, y), background, 4) != 0;
            different += std::memcmp(image.image.at(x, y), reference.image.at(x, y), 4) != 0;
        }
    INFO(different << " pixels differ, of " << covered << " covered");
    REQUIRE(covered > 500);
    REQUIRE(different == 0);
    REQUIRE_NO_VALIDATION_MESSAGES();
}
