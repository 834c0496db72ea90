// The mesh comparison's tolerance (mesh_compare.h) on long grids, where an
// extractor's index coordinate x + t, rounded to float32, is coarser than
// 1e-5 of a spacing while the world coordinate is small.
#include <catch2/catch.hpp>

#include <cmath>
#include <initializer_list>

#include "extract/cpu/marching_cubes.h"
#include "extract/extract.h"
#include "extract_test_support.h"
#include "gpu_test_context.h"
#include "mesh_compare.h"
#include "volume/synthetic.h"

using namespace isoscope;
using namespace isoscope::test;

namespace {

// A mesh of one triangle whose corners all lie at `x` along the first axis.
Mesh triangleAt(float x, const Volume& volume)
{
    Mesh mesh;
    float y = float(volume.origin[1] + volume.spacing[1]), z = float(volume.origin[2] + volume.spacing[2]);
    mesh.positions = {{x, y, z}, {x, y + float(volume.spacing[1]), z}, {x, y, z + float(volume.spacing[2])}};
    mesh.indices = {0, 1, 2};
    return mesh;
}

} // namespace

TEST_CASE("mesh comparison allows float32 rounding of the index coordinate, and no more", "[mesh_compare]")
{
    // cayley:190x23x19's grid: origin -1, spacing 2/189 along x.
    Volume volume = makeSyntheticVolume("cayley:190x23x19");
    double s = volume.spacing[0], origin = volume.origin[0];
    // Index 135.37: past 128, float32 steps by 2^-16 spacings (1.5e-5), while
    // the world coordinate, about 0.43, steps by 3e-8 (2.8e-6 spacings).
    double index = 135.37;
    float reference = float(origin + index * s); // the CPU reference: double, then float
    float indexStep = std::nextafter(float(index), INFINITY) - float(index);
    float worldStep = std::nextafter(reference, INFINITY) - reference;
    // The GPU's rounding of x + t moves the vertex by one index step: more
    // than 1e-5 spacings and more than 4 ulps of the world coordinate, so
    // only the index coordinate's resolution explains it.
    double shifted = (index + indexStep) * s + origin;
    float gpuLike = float(shifted);
    double error = std::abs(double(gpuLike) - reference) / s;
    REQUIRE(error > 1e-5);
    REQUIRE(std::abs(double(gpuLike) - reference) > 4.0 * worldStep);
    MeshComparison near = compareMeshes(triangleAt(gpuLike, volume), triangleAt(reference, volume), volume, 1e-5);
    INFO(near.summary());
    CHECK(near.unmatchedCandidateVertices == 0);
    CHECK(near.facesNotInReference == 0);
    // Ten index steps (1.5e-4 spacings) is an error, not rounding.
    float far = float((index + 10.0 * indexStep) * s + origin);
    MeshComparison apart = compareMeshes(triangleAt(far, volume), triangleAt(reference, volume), volume, 1e-5);
    INFO(apart.summary());
    CHECK(apart.unmatchedCandidateVertices == 3);
    CHECK(apart.facesNotInReference == 1);
}

TEST_CASE("every GPU method gives the CPU reference's surface on a long grid", "[gpu][scan][block][histopyramid][extract]")
{
    struct Case {
        const char* spec;
        float iso;
    };
    for (Case c : {Case{"gyroid:190x23x19", 0.05f}, Case{"cayley:190x23x19", -0.012f}}) {
        Volume volume = makeSyntheticVolume(c.spec);
        Mesh reference = extractMarchingCubes(volume, c.iso);
        REQUIRE(reference.faceCount() > 0);
        for (const char* method : {"block", "scan", "histopyramid"}) {
            ExtractOptions options;
            options.method = method;
            requireSameAsReference(volume, c.iso, options, &reference);
        }
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}
