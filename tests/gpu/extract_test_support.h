#pragma once
// Volumes and checks shared by the GPU extractor tests.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <glm/geometric.hpp>

#include "extract/cpu/marching_cubes.h"
#include "../datasets_dir.h"
#include "extract/extract.h"
#include "gpu_test_context.h"
#include "mesh_compare.h"
#include "volume/readers.h"
#include "volume/volume.h"

namespace isoscope::test {

// A float32 volume of f(x, y, z) at integer grid points.
inline Volume functionVolume(std::array<uint32_t, 3> dims, const std::function<float(uint32_t, uint32_t, uint32_t)>& f,
                             std::string name = "function")
{
    Volume volume;
    volume.dims = dims;
    volume.type = ScalarType::Float32;
    volume.source = std::move(name);
    volume.data.resize(volume.byteSize());
    float* out = reinterpret_cast<float*>(volume.data.data());
    for (uint32_t z = 0; z < dims[2]; ++z)
        for (uint32_t y = 0; y < dims[1]; ++y)
            for (uint32_t x = 0; x < dims[0]; ++x)
                *out++ = f(x, y, z);
    computeStats(volume);
    return volume;
}

// Extracts with `options` on the shared GPU context and checks the mesh is the
// CPU reference's: same faces, same positions (1e-5 spacing), same topology.
// Welded meshes must match vertex for vertex; unwelded ones may repeat
// vertices but every face must map onto a reference face.
// `reference`, when given, is extractMarchingCubes(volume, iso) computed once
// by the caller for several runs.
inline ExtractionReport requireSameAsReference(const Volume& volume, float iso, const ExtractOptions& options,
                                               const Mesh* knownReference = nullptr)
{
    INFO(volume.source << " at iso " << iso << ", method " << options.method << (options.weld ? "" : " (unwelded)")
                       << ", block " << options.blockSize[0] << "x" << options.blockSize[1] << "x"
                       << options.blockSize[2] << ", budget " << options.budgetBytes);
    Mesh computed = knownReference ? Mesh{} : extractMarchingCubes(volume, iso);
    const Mesh& reference = knownReference ? *knownReference : computed;
    ExtractionReport report = extractIsosurface(gpuContext(), volume, iso, options);
    MeshComparison comparison = compareMeshes(report.mesh, reference, volume, 1e-5);
    INFO(comparison.summary());
    REQUIRE(comparison.candidateFaces == comparison.referenceFaces);
    REQUIRE(comparison.unmatchedCandidateVertices == 0);
    REQUIRE(comparison.unmatchedReferenceVertices == 0);
    REQUIRE(comparison.facesNotInReference == 0);
    if (options.weld) {
        REQUIRE(comparison.candidateVertices == comparison.referenceVertices);
        REQUIRE(comparison.candidate.eulerCharacteristic == comparison.reference.eulerCharacteristic);
        REQUIRE(comparison.candidate.boundaryEdges == comparison.reference.boundaryEdges);
        REQUIRE(comparison.candidate.nonManifoldEdges == comparison.reference.nonManifoldEdges);
        REQUIRE(comparison.candidate.inconsistentEdges == comparison.reference.inconsistentEdges);
    } else {
        REQUIRE(comparison.candidateVertices >= comparison.referenceVertices);
    }
    REQUIRE(report.mesh.normals.size() == report.mesh.positions.size());
    for (const glm::vec3& n : report.mesh.normals)
        REQUIRE(std::abs(glm::length(n) - 1.0f) < 1e-3f);
    // The same central differences as the reference's, taken from the
    // filtered image (next to non-finite samples, from the grid as the
    // reference does): apart where a gradient is nearly zero (the filter's
    // rounding then turns it; a checkerboard's are zero everywhere) and at
    // the volume's faces (the image repeats its edge sample where the
    // reference takes a one-sided difference): at most 2%, or 2 vertices of
    // a small mesh.
    REQUIRE(comparison.normalsCompared == comparison.candidateVertices - comparison.unmatchedCandidateVertices);
    REQUIRE(comparison.normalsApart <= std::max<uint64_t>(2, comparison.normalsCompared / 50));
    return report;
}

// Isovalues spread over a volume's range: a quarter, half and three quarters
// of the way, rounded to integers for integer data (so samples equal to the
// isovalue occur).
inline std::vector<float> spreadIsovalues(const Volume& volume)
{
    std::vector<float> isos;
    for (double f : {0.25, 0.5, 0.75}) {
        double v = volume.stats.min + f * (volume.stats.max - volume.stats.min);
        isos.push_back(volume.type == ScalarType::Float32 ? float(v) : float(std::round(v)));
    }
    return isos;
}

// A sphere with NaN and ±Inf samples scattered through it: the extractors
// count them outside, as the CPU reference does.
inline Volume sphereWithNonFiniteSamples()
{
    return functionVolume({15, 14, 13}, [](uint32_t x, uint32_t y, uint32_t z) {
        if ((x * 7 + y * 3 + z) % 11 == 0)
            return (x + z) % 2 ? std::nanf("") : INFINITY;
        float dx = x - 7.0f, dy = y - 6.5f, dz = z - 6.0f;
        return 40.0f - (dx * dx + dy * dy + dz * dz);
    }, "sphere with NaN and Inf");
}

// The box [first, first + dims) of a volume, as a volume of its own.
inline Volume crop(const Volume& volume, std::array<uint32_t, 3> first, std::array<uint32_t, 3> dims)
{
    Volume box = volume;
    box.dims = dims;
    box.source = volume.source + " (cropped)";
    size_t bytes = scalarSize(volume.type);
    box.data.resize(box.byteSize());
    for (uint32_t z = 0; z < dims[2]; ++z)
        for (uint32_t y = 0; y < dims[1]; ++y)
            std::memcpy(&box.data[box.index(0, y, z) * bytes],
                        &volume.data[volume.index(first[0], first[1] + y, first[2] + z) * bytes], dims[0] * bytes);
    for (int i = 0; i < 3; ++i)
        box.origin[i] = volume.origin[i] + first[i] * volume.spacing[i];
    computeStats(box);
    return box;
}

// The real datasets at isovalues across their ranges (the engine CT's
// central eighth, which keeps the test fast on lavapipe and its coordinates
// far from the origin, where float rounding shows), each volume and
// isovalue given to `check` with the CPU reference's mesh. False, after a
// warning, when ../shared/datasets is absent.
inline bool forEachRealDataset(const std::function<void(const Volume&, float, const Mesh&)>& check)
{
    std::filesystem::path datasets = datasetsDir();
    if (!std::filesystem::exists(datasets / "MANIFEST.md")) {
        WARN("skipped: no datasets at " << datasets.string());
        return false;
    }
    struct Dataset {
        const char* file;
        std::array<float, 3> isos;
    };
    for (Dataset dataset : {Dataset{"anatomical_33x41x25_int16.nhdr", {2000.5f, 5000.5f, 8000.5f}},
                            Dataset{"fmri_128x96x24_int16.nhdr", {150.5f, 300.5f, 600.5f}},
                            Dataset{"engine_256x256x128_uint8.nhdr", {60.5f, 100.5f, 150.5f}}}) {
        Volume volume = readVolumeFile(datasets / dataset.file);
        if (volume.dims[0] == 256)
            volume = crop(volume, {64, 64, 32}, {128, 128, 64});
        for (float iso : dataset.isos) {
            INFO(dataset.file << " range " << volume.stats.min << " .. " << volume.stats.max);
            Mesh reference = extractMarchingCubes(volume, iso);
            REQUIRE(reference.faceCount() > 0);
            check(volume, iso, reference);
        }
    }
    return true;
}

} // namespace isoscope::test
