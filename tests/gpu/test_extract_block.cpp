// The block method (Parallel Marching Blocks) against the CPU reference, at
// the subgroup size this run uses (ctest runs the binary at 4 and 8 on
// lavapipe; tools/gpu_check.sh at 32 on the H100).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>

#include "../datasets_dir.h"
#include "core/context.h"
#include "core/shader.h"
#include "volume/gpu_volume.h"
#include "extract/extraction_run.h"
#include "extract/gpu_extractor.h"
#include "extract/gpu_methods.h"
#include "extract_test_support.h"
#include "volume/quantize.h"
#include "volume/readers.h"
#include "volume/synthetic.h"

using namespace isoscope;
using namespace isoscope::test;

namespace {

// `pass`: the triangle pass ("cells", "rows"; "" both where the volume has
// 4,096 blocks or more, the list's length picking one on the GPU, else
// cells), so that tests cover both.
ExtractOptions blockOptions(std::array<uint32_t, 3> blockSize = {8, 4, 4}, bool weld = true, const std::string& pass = "")
{
    ExtractOptions options;
    options.method = "block";
    options.blockSize = blockSize;
    options.weld = weld;
    options.blockPass = pass;
    return options;
}

// One extraction by hand (the driver's loop: grow and redo until nothing
// overflows), keeping the extractor to compare what it reports with what the
// allocator counted while it was made and grown.
struct BlockMemoryRun {
    uint64_t reportedAuxBytes = 0;
    uint64_t allocatedAuxBytes = 0; // device bytes held beyond the volume and the mesh
    std::map<std::string, uint64_t> work;
};

BlockMemoryRun runBlockExtraction(const Volume& volume, float iso)
{
    Context& context = gpuContext();
    GpuVolume gpuVolume(context, volume, findGpuMethod("block")->volumeUsage(volume));
    uint64_t before = context.allocator().currentDeviceBytes();
    std::unique_ptr<GpuExtractor> extractor =
        createGpuExtractor(context, "block", FieldSource{&volume, &gpuVolume}, blockOptions());
    GraphExtraction extraction(context, *extractor, iso);
    extraction.run(iso);
    BlockMemoryRun run;
    // The graph's transients (the list and its maps) count as auxiliary memory too.
    run.reportedAuxBytes = extractor->auxiliaryBytes() + extraction.graph().transientBytes();
    run.allocatedAuxBytes = context.allocator().currentDeviceBytes() - before - extraction.mesh().deviceBytes() -
                            extractor->tableBytes();
    for (auto& [name, count] : extractor->workCounts())
        run.work[name] = count;
    return run;
}

// The blocks whose cells straddle `iso` (an inside sample, finite and >= iso,
// and an outside one), on the CPU: a cell of block b spans samples
// [b * size, (b + 1) * size] clamped to the volume.
uint64_t blocksWhoseCellsStraddle(const Volume& volume, float iso, std::array<uint32_t, 3> size = {8, 4, 4})
{
    std::array<uint32_t, 3> counts;
    for (int i = 0; i < 3; ++i)
        counts[i] = (volume.dims[i] + size[i] - 1) / size[i];
    uint64_t straddling = 0;
    for (uint32_t bz = 0; bz < counts[2]; ++bz)
        for (uint32_t by = 0; by < counts[1]; ++by)
            for (uint32_t bx = 0; bx < counts[0]; ++bx) {
                bool inside = false, outside = false;
                for (uint32_t z = bz * size[2]; z <= std::min((bz + 1) * size[2], volume.dims[2] - 1); ++z)
                    for (uint32_t y = by * size[1]; y <= std::min((by + 1) * size[1], volume.dims[1] - 1); ++y)
                        for (uint32_t x = bx * size[0]; x <= std::min((bx + 1) * size[0], volume.dims[0] - 1); ++x) {
                            float v = volume.value(x, y, z);
                            bool in = std::isfinite(v) && v >= iso;
                            inside |= in;
                            outside |= !in;
                        }
                straddling += inside && outside ? 1 : 0;
            }
    return straddling;
}

} // namespace

TEST_CASE("block extraction lists exactly the blocks whose cells straddle the isovalue, and its auxiliary memory "
          "is what it allocates and under 10% of the volume",
          "[block][memory]")
{
    std::vector<Volume> volumes;
    for (const char* spec : {"sphere:64", "torus:64", "cayley:64", "gyroid:64", "marschner-lobb:64"}) {
        volumes.push_back(makeSyntheticVolume(spec));
        // A quarter of the bytes, the tightest budget: the gyroid crosses 72%
        // of the blocks and needs up to 9.5%.
        volumes.push_back(quantizeToUInt8(volumes.back()));
    }
    std::filesystem::path folder = isoscope::test::datasetsDir();
    if (std::filesystem::exists(folder)) {
        for (const char* file :
             {"engine_256x256x128_uint8.nhdr", "fmri_128x96x24_int16.nhdr", "anatomical_33x41x25_int16.nhdr"})
            volumes.push_back(loadVolume((folder / file).string()));
    } else {
        WARN("real volumes skipped: " << folder << " is absent (they live in ../shared/datasets)");
    }
    for (const Volume& volume : volumes) {
        std::vector<float> isos = spreadIsovalues(volume);
        if (volume.source.find("engine") != std::string::npos)
            isos.push_back(60.5f);
        for (float iso : isos) {
            BlockMemoryRun run = runBlockExtraction(volume, iso);
            uint64_t straddling = blocksWhoseCellsStraddle(volume, iso);
            INFO(volume.source << " (" << scalarName(volume.type) << ") at iso " << iso << ": aux "
                               << run.reportedAuxBytes << " bytes reported, " << run.allocatedAuxBytes
                               << " allocated, volume " << volume.byteSize() << " bytes; listed "
                               << run.work["listed_blocks"] << ", with geometry " << run.work["blocks_with_geometry"]
                               << ", straddling " << straddling);
            REQUIRE(run.reportedAuxBytes == run.allocatedAuxBytes);
            // Under 10% of the volume on every volume, the 66 KiB anatomical
            // one included (at its upper isovalue 340 of its 385 blocks are
            // crossed, and its list alone is 6%). The 2 KiB case table is
            // not auxiliary memory (the same for every volume; reported as
            // table bytes).
            REQUIRE(run.reportedAuxBytes * 10 < volume.byteSize());
            // Integers up to 2048 are exact in the ranges' halves; other
            // values may be rounded outward, which can only list more.
            bool exactRanges = volume.type != ScalarType::Float32 &&
                               std::max(std::abs(volume.stats.min), std::abs(volume.stats.max)) <= 2048.0;
            if (exactRanges)
                REQUIRE(run.work["listed_blocks"] == straddling);
            else
                REQUIRE(run.work["listed_blocks"] >= straddling);
            REQUIRE(run.work["blocks_with_geometry"] <= run.work["listed_blocks"]);
        }
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("block extraction matches the CPU reference on every synthetic field at three isovalues", "[block]")
{
    const std::string pass = GENERATE(as<std::string>{}, "cells", "rows");
    for (const char* spec : {"sphere:29", "torus:31x23x19", "cayley:33", "gyroid:27", "marschner-lobb:25"}) {
        Volume volume = makeSyntheticVolume(spec);
        for (float iso : spreadIsovalues(volume))
            requireSameAsReference(volume, iso, blockOptions({8, 4, 4}, true, pass));
    }
    requireSameAsReference(makeSyntheticVolume("cayley:40"), -0.012f, blockOptions({8, 4, 4}, true, pass));
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("block extraction matches the CPU reference on the real volumes at three or more isovalues", "[block][datasets]")
{
    const std::string pass = GENERATE(as<std::string>{}, "cells", "rows");
    std::filesystem::path folder = isoscope::test::datasetsDir();
    if (!std::filesystem::exists(folder)) {
        WARN("skipped: " << folder << " is absent (the real volumes live in ../shared/datasets)");
        return;
    }
    struct Case {
        const char* file;
        float manifestIso;
    };
    for (Case c : {Case{"engine_256x256x128_uint8.nhdr", 60.5f}, Case{"fmri_128x96x24_int16.nhdr", 300.5f},
                   Case{"anatomical_33x41x25_int16.nhdr", 5000.5f}}) {
        Volume volume = loadVolume((folder / c.file).string());
        std::vector<float> isos = spreadIsovalues(volume);
        isos.push_back(c.manifestIso);
        for (float iso : isos)
            requireSameAsReference(volume, iso, blockOptions({8, 4, 4}, true, pass));
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("block sizes other than the paper's, on dims that are not multiples of them", "[block]")
{
    const std::string pass = GENERATE(as<std::string>{}, "cells", "rows");
    Volume volume = makeSyntheticVolume("torus:19x13x11");
    for (std::array<uint32_t, 3> size :
         {std::array<uint32_t, 3>{4, 4, 4}, {3, 5, 7}, {2, 2, 2}, {16, 2, 4}, {1, 1, 1}, {8, 4, 4}})
        requireSameAsReference(volume, 0.1f, blockOptions(size, true, pass));
    // 32 wide, the widest a welded block may be (count_vertices holds a
    // block row in one word and the overlap sample apart), on a volume wide
    // enough for the overlap column to lie in the next block.
    requireSameAsReference(makeSyntheticVolume("torus:70x13x11"), 0.1f, blockOptions({32, 2, 2}, true, pass));
    REQUIRE_THROWS_WITH(extractIsosurface(gpuContext(), volume, 0.1f, blockOptions({33, 1, 1}, true, pass)),
                        Catch::Contains("at most 32"));
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("blocks whose edge-group sizes take two words of a list entry (8x8x8) match the reference", "[block]")
{
    // 8x8x8: 36 bits of group sizes (slotWords in block_extractor.cpp). The
    // passes take a block's rows (81), not its 512 cells, a workgroup, so
    // every device runs it, lavapipe at subgroup size 4 included.
    requireSameAsReference(makeSyntheticVolume("torus:37x29x23"), 0.1f, blockOptions({8, 8, 8}));
    requireSameAsReference(makeSyntheticVolume("gyroid:41"), 0.3f, blockOptions({8, 8, 8}));
    requireSameAsReference(makeSyntheticVolume("gyroid:41"), 0.3f, blockOptions({8, 8, 8}, false));
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("volumes two voxels thin on any axis are extracted", "[block]")
{
    const std::string pass = GENERATE(as<std::string>{}, "cells", "rows");
    for (std::array<uint32_t, 3> dims :
         {std::array<uint32_t, 3>{2, 17, 9}, {17, 2, 9}, {17, 9, 2}, {2, 2, 2}, {9, 2, 2}}) {
        Volume volume = functionVolume(dims, [](uint32_t x, uint32_t y, uint32_t z) {
            return std::sin(0.9f * float(x) + 0.3f) + std::cos(0.7f * float(y)) * std::sin(1.3f * float(z) + 0.5f);
        });
        requireSameAsReference(volume, 0.2f, blockOptions({8, 4, 4}, true, pass));
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("an isovalue outside the value range gives an empty mesh and no error", "[block]")
{
    const std::string pass = GENERATE(as<std::string>{}, "cells", "rows");
    Volume volume = makeSyntheticVolume("sphere:20");
    for (float iso : {-5.0f, 100.0f, float(volume.stats.max) + 1.0f}) {
        ExtractionReport report = extractIsosurface(gpuContext(), volume, iso, blockOptions({8, 4, 4}, true, pass));
        REQUIRE(report.mesh.positions.empty());
        REQUIRE(report.mesh.indices.empty());
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("every cell active: a checkerboard crosses every edge; full buffers are grown, never truncated", "[block]")
{
    const std::string pass = GENERATE(as<std::string>{}, "cells", "rows");
    // Every grid edge is crossed and every cell holds triangles: far beyond
    // the first mesh estimate, so the extraction must be redone larger.
    Volume checkerboard = functionVolume({23, 18, 13}, [](uint32_t x, uint32_t y, uint32_t z) {
        return float((x + y + z) & 1u);
    }, "checkerboard");
    ExtractionReport report = requireSameAsReference(checkerboard, 0.5f, blockOptions({8, 4, 4}, true, pass));
    REQUIRE(report.overflowRetries >= 1);
    REQUIRE(report.mesh.positions.size() == 22 * 18 * 13 + 23 * 17 * 13 + 23 * 18 * 12);

    // 2x2x2 blocks on 48³: 13,824 blocks, all active, more than the first
    // active-block list holds.
    Volume gyroid = functionVolume({48, 48, 48}, [](uint32_t x, uint32_t y, uint32_t z) {
        float s = 2.1f;
        return std::sin(s * x) * std::cos(s * y) + std::sin(s * y) * std::cos(s * z) + std::sin(s * z) * std::cos(s * x);
    }, "high-frequency gyroid");
    ExtractionReport gyroidReport = requireSameAsReference(gyroid, 0.05f, blockOptions({2, 2, 2}, true, pass));
    REQUIRE(gyroidReport.overflowRetries >= 1);
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("non-finite samples are outside, as in the CPU reference", "[block]")
{
    const std::string pass = GENERATE(as<std::string>{}, "cells", "rows");
    Volume volume = sphereWithNonFiniteSamples();
    requireSameAsReference(volume, 0.0f, blockOptions({8, 4, 4}, true, pass));
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("without welding, the block mesh has the reference's faces and repeats only vertices on block faces", "[block]")
{
    const std::string pass = GENERATE(as<std::string>{}, "cells", "rows");
    Volume volume = makeSyntheticVolume("cayley:30");
    ExtractionReport welded = requireSameAsReference(volume, -0.012f, blockOptions({8, 4, 4}, true, pass));
    ExtractionReport unwelded = requireSameAsReference(volume, -0.012f, blockOptions({8, 4, 4}, false, pass));
    REQUIRE(unwelded.mesh.positions.size() > welded.mesh.positions.size());
    MeshReport check = checkMesh(unwelded.mesh);
    REQUIRE(check.boundaryEdges > 0); // the seams between blocks are open
    // Every repeated position lies on a block face.
    std::map<std::array<float, 3>, int> seen;
    for (const glm::vec3& p : unwelded.mesh.positions)
        ++seen[{p.x, p.y, p.z}];
    for (auto& [p, count] : seen) {
        if (count == 1)
            continue;
        bool onBlockFace = false;
        for (int axis = 0; axis < 3; ++axis) {
            double index = (p[axis] - volume.origin[axis]) / volume.spacing[axis];
            double nearest = std::round(index);
            if (std::abs(index - nearest) < 1e-3 && int64_t(nearest) % volume.dims[axis] != 0 &&
                int64_t(nearest) % std::array<int, 3>{8, 4, 4}[axis] == 0)
                onBlockFace = true;
        }
        REQUIRE(onBlockFace);
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("the Cayley surface evaluated in the shader matches the stored volume's", "[block]")
{
    const std::string pass = GENERATE(as<std::string>{}, "cells", "rows");
    Volume stored = makeSyntheticVolume("cayley:41");
    Mesh reference = extractMarchingCubes(stored, -0.012f);
    ExtractOptions options = blockOptions({8, 4, 4}, true, pass);
    options.analyticField = "cayley";
    ExtractionReport analytic = extractIsosurface(gpuContext(), stored, -0.012f, options);
    // The shader evaluates the polynomial in float, the CPU in double: samples
    // within float rounding of the isovalue may fall either side.
    MeshComparison comparison = compareMeshes(analytic.mesh, reference, stored, 1e-3);
    INFO(comparison.summary());
    double faces = double(comparison.referenceFaces);
    REQUIRE(std::abs(double(comparison.candidateFaces) - faces) <= 0.002 * faces);
    REQUIRE(comparison.unmatchedCandidateVertices <= comparison.candidateVertices / 500);
    REQUIRE(comparison.candidate.eulerCharacteristic == comparison.reference.eulerCharacteristic);
    REQUIRE(comparison.candidate.nonManifoldEdges == 0);
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("block extraction writes its draw arguments on the GPU and keeps auxiliary memory under 10% of the volume",
          "[block]")
{
    const std::string pass = GENERATE(as<std::string>{}, "cells", "rows");
    Volume volume = functionVolume({160, 128, 96}, [](uint32_t x, uint32_t y, uint32_t z) {
        float dx = x - 80.0f, dy = y - 60.0f, dz = z - 45.0f;
        return float(std::clamp(200.0f - std::sqrt(dx * dx + dy * dy + dz * dz) * 4.0f, 0.0f, 255.0f));
    });
    Volume bytes = volume; // the same field as uint8, the tightest budget
    bytes.type = ScalarType::UInt8;
    bytes.data.resize(volume.sampleCount());
    for (uint64_t i = 0; i < volume.sampleCount(); ++i)
        bytes.data[i] = std::byte(uint8_t(volume.valueAt(i)));
    computeStats(bytes);
    ExtractionReport report = requireSameAsReference(bytes, 100.5f, blockOptions({8, 4, 4}, true, pass));
    INFO("aux " << report.auxDeviceBytes << " bytes for a " << bytes.byteSize() << "-byte volume");
    REQUIRE(report.auxDeviceBytes > 0);
    REQUIRE(report.auxDeviceBytes < bytes.byteSize() / 10);
    REQUIRE(report.totalGpuMs.has_value());
    // The graph's passes, in order, under the names benchmarks report.
    std::vector<std::string> names;
    for (const auto& [name, ms] : report.gpuMsPerPass)
        names.push_back(name);
    // compact_blocks resets the mesh's counts, sizes the dispatches and leaves
    // its own counters at zero (no reset or clear pass, none between it and
    // count_vertices); this volume's 15,360 blocks get both triangle passes
    // in one graph pass unless one is asked for.
    REQUIRE(names == std::vector<std::string>{"min_max", "compact_blocks", "count_vertices",
                                              pass == "rows"    ? "generate_rows"
                                              : pass == "cells" ? "generate_triangles"
                                                                : "generate_rows_or_cells",
                                              "finalize_mesh"});
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("both triangle passes are recorded in one graph pass and the list's length picks one on the GPU", "[block]")
{
    // 256x256x128 holds 2^20 blocks of 2x2x2: a small sphere lists fewer
    // blocks than the row pass is picked for (4,096), a large one more. Unit
    // spacing, so that positions compare to 1e-5 of a spacing in float32.
    auto sphere = [](std::array<uint32_t, 3> dims) {
        return functionVolume(dims, [dims](uint32_t x, uint32_t y, uint32_t z) {
            float dx = x - (dims[0] / 2 - 0.7f), dy = y - (dims[1] / 2 + 0.6f), dz = z - (dims[2] / 2 - 0.1f);
            return std::sqrt(dx * dx + dy * dy + dz * dz);
        });
    };
    Volume volume = sphere({256, 256, 128});
    for (float iso : {5.5f, 60.5f}) {
        ExtractionReport report = requireSameAsReference(volume, iso, blockOptions({2, 2, 2}));
        std::map<std::string, uint64_t> work(report.workCounts.begin(), report.workCounts.end());
        std::vector<std::string> names;
        for (const auto& [name, ms] : report.gpuMsPerPass)
            names.push_back(name);
        INFO("radius " << iso << ": listed " << work["listed_blocks"]);
        REQUIRE(std::count(names.begin(), names.end(), "generate_rows_or_cells") == 1);
        REQUIRE(std::count(names.begin(), names.end(), "generate_triangles") == 0);
        REQUIRE(std::count(names.begin(), names.end(), "generate_rows") == 0);
        REQUIRE(work.count("row_pass") == 1);
        REQUIRE(work["row_pass"] == (work["listed_blocks"] >= 4096 ? 1u : 0u));
        REQUIRE(work["row_pass"] == (iso > 30.0f ? 1u : 0u)); // both picks are exercised
    }
    // A volume of fewer blocks than the row pass is picked for: the cell pass alone.
    ExtractionReport report = requireSameAsReference(sphere({64, 64, 32}), 12.5f, blockOptions({8, 4, 4}));
    std::map<std::string, uint64_t> work(report.workCounts.begin(), report.workCounts.end());
    std::vector<std::string> names;
    for (const auto& [name, ms] : report.gpuMsPerPass)
        names.push_back(name);
    REQUIRE(work["blocks"] < 4096);
    REQUIRE(std::count(names.begin(), names.end(), "generate_triangles") == 1);
    REQUIRE(std::count(names.begin(), names.end(), "generate_rows") == 0);
    REQUIRE(std::count(names.begin(), names.end(), "generate_rows_or_cells") == 0);
    REQUIRE(work["row_pass"] == 0);
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("the block extractor writes draw arguments a raster pass can use directly", "[block]")
{
    const std::string pass = GENERATE(as<std::string>{}, "cells", "rows");
    Volume volume = makeSyntheticVolume("sphere:21");
    ExtractionReport report = extractIsosurface(gpuContext(), volume, 0.6f, blockOptions({8, 4, 4}, true, pass));
    // runGpuExtraction leaves the mesh behind; run the graph here to read the counters.
    Context& context = gpuContext();
    GpuVolume gpuVolume(context, volume);
    std::unique_ptr<GpuExtractor> extractor =
        createGpuExtractor(context, "block", FieldSource{&volume, &gpuVolume}, blockOptions({8, 4, 4}, true, pass));
    GraphExtraction extraction(context, *extractor, 0.6f);
    extraction.run(0.6f);
    GpuMeshCounters counters = readCounters(context, extraction.mesh());
    REQUIRE(counters.overflow == 0);
    REQUIRE(counters.faceCount == report.mesh.faceCount());
    REQUIRE(counters.vertexCount == report.mesh.positions.size());
    REQUIRE(counters.draw.indexCount == 3 * report.mesh.faceCount());
    REQUIRE(counters.draw.instanceCount == 1);
    REQUIRE(counters.draw.firstIndex == 0);
    REQUIRE(counters.draw.vertexOffset == 0);
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("every sample type, with rows of whole words (raw-byte ranges) and without (image ranges)", "[block]")
{
    const std::string pass = GENERATE(as<std::string>{}, "cells", "rows");
    // x-sizes 36 and 35: 36 samples of 8 or 16 bits fill whole 32-bit words,
    // 35 do not, so both value-range passes run (float32 always reads the image).
    for (uint32_t width : {36u, 35u})
        for (ScalarType type : {ScalarType::UInt8, ScalarType::UInt16, ScalarType::Int16, ScalarType::Float32}) {
            Volume field = functionVolume({width, 21, 17}, [](uint32_t x, uint32_t y, uint32_t z) {
                float dx = x - 17.0f, dy = y - 10.0f, dz = z - 8.0f;
                return 100.0f - 0.4f * (dx * dx + dy * dy + dz * dz);
            });
            Volume volume = field;
            volume.type = type;
            volume.data.resize(volume.byteSize());
            for (uint64_t i = 0; i < volume.sampleCount(); ++i) {
                float v = field.valueAt(i);
                switch (type) {
                case ScalarType::UInt8: volume.data[i] = std::byte(uint8_t(std::clamp(v + 100.0f, 0.0f, 255.0f))); break;
                case ScalarType::UInt16: {
                    uint16_t q = uint16_t(std::clamp(v * 300.0f + 30000.0f, 0.0f, 65535.0f));
                    std::memcpy(&volume.data[2 * i], &q, 2);
                    break;
                }
                case ScalarType::Int16: {
                    int16_t q = int16_t(std::clamp(v * 200.0f, -32767.0f, 32767.0f));
                    std::memcpy(&volume.data[2 * i], &q, 2);
                    break;
                }
                case ScalarType::Float32: std::memcpy(&volume.data[4 * i], &v, 4); break;
                }
            }
            computeStats(volume);
            for (float iso : spreadIsovalues(volume))
                requireSameAsReference(volume, iso, blockOptions({8, 4, 4}, true, pass));
        }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("8-bit volumes whose block counts along x are even and odd (compact_blocks' two ways to list)", "[block]")
{
    const std::string pass = GENERATE(as<std::string>{}, "cells", "rows");
    // 36 samples a row: blocks 3, 5 and 2 wide give an even count along x
    // (an invocation per 32-block word), 16 and 17 wide an odd one (an
    // invocation per block); 17 wide also reads the image for its ranges.
    Volume field = functionVolume({36, 21, 17}, [](uint32_t x, uint32_t y, uint32_t z) {
        float dx = x - 17.0f, dy = y - 10.0f, dz = z - 8.0f;
        return std::clamp(200.0f - 0.8f * (dx * dx + dy * dy + dz * dz), 0.0f, 255.0f);
    });
    Volume volume = field;
    volume.type = ScalarType::UInt8;
    volume.data.resize(volume.sampleCount());
    for (uint64_t i = 0; i < volume.sampleCount(); ++i)
        volume.data[i] = std::byte(uint8_t(field.valueAt(i)));
    computeStats(volume);
    for (std::array<uint32_t, 3> size : {std::array<uint32_t, 3>{3, 5, 7}, {5, 4, 4}, {2, 2, 2}, {16, 2, 4}, {17, 2, 2}})
        for (float iso : {0.0f, 60.5f, 199.5f, 255.5f})
            requireSameAsReference(volume, iso, blockOptions(size, true, pass));
    REQUIRE_NO_VALIDATION_MESSAGES();
}
