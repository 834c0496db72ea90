// `--method histopyramid` produces the CPU reference's surface: the same
// triangles and vertex positions; welded, the same topology numbers too; as
// a soup, three vertices per triangle. Synthetic fields, every sample type,
// thin and tiny volumes (pyramids whose levels have odd sizes, and ones
// padded up to the passes' least height), non-finite samples, a volume whose
// every point is occupied, and the real datasets.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <initializer_list>

#include "extract/cpu/marching_cubes.h"
#include "extract/extract.h"
#include "extract/extraction_run.h"
#include "extract/gpu_extractor.h"
#include "extract/histopyramid/histopyramid_levels.h"
#include "extract_test_support.h"
#include "gpu_test_context.h"
#include "volume/quantize.h"
#include "volume/synthetic.h"

using namespace isoscope;

namespace {

ExtractOptions pyramidOptions(bool weld)
{
    ExtractOptions options;
    options.method = "histopyramid";
    options.weld = weld;
    return options;
}

ExtractionReport checkSameSurface(const Volume& volume, float iso, bool weld, const Mesh* reference = nullptr)
{
    ExtractionReport report = test::requireSameAsReference(volume, iso, pyramidOptions(weld), reference);
    // Under 2^23 points the base pass runs without columns (histoPyramidBaseInColumns).
    uint64_t points = uint64_t(volume.dims[0]) * volume.dims[1] * volume.dims[2];
    REQUIRE(std::count(report.workCounts.begin(), report.workCounts.end(),
                       std::pair<std::string, uint64_t>{"base_column", 0}) == (points < (uint64_t(1) << 23) ? 1 : 0));
    if (!weld)
        REQUIRE(report.mesh.positions.size() == 3 * report.mesh.faceCount());
    // The pyramid is all the method keeps beyond the mesh: its size is known in advance.
    HistoPyramidShape shape = histoPyramidShape(volume.dims);
    REQUIRE(report.auxDeviceBytes >= shape.totalWords * 4);
    REQUIRE(report.auxDeviceBytes < shape.totalWords * 4 + 64 * 1024);
    return report;
}

// The columns pass at each forced column height equals the reference, and ran at that height.
void requireColumnsMatch(const Volume& volume, float iso, const Mesh& reference, std::initializer_list<uint32_t> columns)
{
    for (uint32_t column : columns) {
        INFO("column " << column << " of " << histoPyramidShape(volume.dims).levels[2].dims[2] << " layers");
        ExtractOptions options = pyramidOptions(true);
        options.histoPyramidColumn = column;
        ExtractionReport report = test::requireSameAsReference(volume, iso, options, &reference);
        REQUIRE(std::count(report.workCounts.begin(), report.workCounts.end(),
                           std::pair<std::string, uint64_t>{"base_column", column}) == 1);
    }
}

} // namespace

TEST_CASE("histopyramid extraction matches the CPU reference on every synthetic field, welded and as a soup",
          "[gpu][histopyramid][extract]")
{
    struct FieldCase {
        const char* spec;
        std::array<float, 3> isos;
    };
    // Sizes whose pyramid levels are odd at several heights.
    for (FieldCase field : {FieldCase{"cayley:37", {-0.012f, 0.1f, 0.5f}},
                            FieldCase{"sphere:33x29x31", {0.3f, 0.7f, 0.95f}},
                            FieldCase{"torus:41x38x23", {0.01f, 0.04f, 0.09f}},
                            FieldCase{"gyroid:35", {-0.6f, 0.05f, 0.7f}},
                            FieldCase{"marschner-lobb:41", {0.25f, 0.5f, 0.8f}}}) {
        Volume volume = makeSyntheticVolume(field.spec);
        for (float iso : field.isos) {
            Mesh reference = extractMarchingCubes(volume, iso);
            REQUIRE(reference.faceCount() > 0);
            checkSameSurface(volume, iso, true, &reference);
            if (iso == field.isos[1])
                checkSameSurface(volume, iso, false, &reference);
        }
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("histopyramid extraction handles thin and tiny volumes", "[gpu][histopyramid][extract]")
{
    // Two samples thin on an axis, and volumes of a single cell or a few,
    // whose pyramids are padded with one-node levels.
    for (const char* spec : {"sphere:2x17x13", "sphere:19x2x11", "sphere:13x15x2", "gyroid:2x2x9", "sphere:2x2x2",
                             "sphere:3x2x2", "sphere:5x4x3", "gyroid:65x3x2"}) {
        Volume volume = makeSyntheticVolume(spec);
        float iso = float(0.5 * (volume.stats.min + volume.stats.max));
        for (bool weld : {true, false})
            checkSameSurface(volume, iso, weld);
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("histopyramid extraction walks columns of level-2 layers, the last one short", "[gpu][histopyramid][extract]")
{
    // Large volumes walk up to 8 layers a workgroup (histoPyramidBaseColumn);
    // here forced on small ones: columns that divide the layers and ones
    // that leave a short last column, rows that end inside a run.
    for (const char* spec : {"sphere:37x29x61", "gyroid:45x19x33"}) {
        Volume field = makeSyntheticVolume(spec);
        for (const Volume& volume : {field, quantizeToUInt8(field)}) {
            float iso = float(volume.stats.min + 0.35 * (volume.stats.max - volume.stats.min));
            Mesh reference = extractMarchingCubes(volume, iso);
            REQUIRE(reference.faceCount() > 1000);
            uint32_t layers = histoPyramidShape(volume.dims).levels[2].dims[2];
            requireColumnsMatch(volume, iso, reference, {2u, 3u, 8u, layers});
        }
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("histopyramid extraction of uint8 volumes whose x size is a multiple of 16 reads whole aligned lines",
          "[gpu][histopyramid][extract]")
{
    // The columns pass's byte path: every line one 16-byte load, the 17th
    // sample a word, the last run of a row 16 samples; a row of one run and
    // rows of three, columns short and long, and isovalues below and above
    // every sample (all inside, none inside).
    for (const char* spec : {"sphere:48x29x61", "gyroid:16x21x33", "cayley:32x45x19"}) {
        Volume volume = quantizeToUInt8(makeSyntheticVolume(spec));
        uint32_t layers = histoPyramidShape(volume.dims).levels[2].dims[2];
        for (float iso : {float(volume.stats.min + 0.35 * (volume.stats.max - volume.stats.min)), 0.0f, 255.5f}) {
            Mesh reference = extractMarchingCubes(volume, iso);
            REQUIRE((reference.faceCount() > 500) == (iso != 0.0f && iso != 255.5f));
            INFO(spec << " iso " << iso);
            requireColumnsMatch(volume, iso, reference, {1u, 3u, layers});
        }
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("histopyramid extraction of float32 and 16-bit volumes whose x size is a multiple of 4 reads whole lines",
          "[gpu][histopyramid][extract]")
{
    // The columns pass's wide path: every line four vector loads and a
    // sample, the last run of a row short (x 36 and 20: runs of 16 points),
    // columns short and long, and isovalues below and above every sample.
    for (const char* spec : {"sphere:36x29x61", "gyroid:20x21x33"}) {
        Volume field = makeSyntheticVolume(spec);
        uint32_t layers = histoPyramidShape(field.dims).levels[2].dims[2];
        for (const Volume& volume : {field, quantize(field, ScalarType::Int16), quantize(field, ScalarType::UInt16)}) {
            float low = float(volume.stats.min), high = float(volume.stats.max);
            for (float iso : {low + 0.35f * (high - low), low - 1.0f, high + 1.0f}) {
                Mesh reference = extractMarchingCubes(volume, iso);
                REQUIRE((reference.faceCount() > 500) == (iso > low && iso < high));
                INFO(spec << " type " << int(volume.type) << " iso " << iso);
                requireColumnsMatch(volume, iso, reference, {1u, 3u, layers});
            }
        }
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("histopyramid extraction matches the CPU reference for every sample type", "[gpu][histopyramid][extract]")
{
    Volume field = test::functionVolume({35, 21, 17}, [](uint32_t x, uint32_t y, uint32_t z) {
        float dx = x - 17.0f, dy = y - 10.0f, dz = z - 8.0f;
        return 100.0f - 0.4f * (dx * dx + dy * dy + dz * dz);
    });
    Volume bytes = quantizeToUInt8(field);
    Volume shorts = quantize(field, ScalarType::Int16);
    Volume ushorts = quantize(field, ScalarType::UInt16);
    REQUIRE(shorts.stats.min < 0.0);
    REQUIRE(ushorts.stats.max > 32767.0);
    for (const Volume* volume : {&field, &bytes, &shorts, &ushorts})
        for (float iso : test::spreadIsovalues(*volume))
            for (bool weld : {true, false})
                checkSameSurface(*volume, iso, weld);
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("histopyramid extraction treats NaN and Inf samples as outside and gives an empty mesh outside the range",
          "[gpu][histopyramid][extract]")
{
    Volume volume = test::sphereWithNonFiniteSamples();
    for (bool weld : {true, false})
        checkSameSurface(volume, 0.0f, weld);
    Volume sphere = makeSyntheticVolume("sphere:20");
    for (float iso : {float(sphere.stats.max) + 1.0f, float(sphere.stats.min) - 1.0f}) {
        ExtractionReport report = extractIsosurface(test::gpuContext(), sphere, iso, pyramidOptions(true));
        REQUIRE(report.mesh.faceCount() == 0);
        REQUIRE(report.mesh.positions.empty());
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("histopyramid extraction of a checkerboard, every point occupied, grows the mesh it guessed",
          "[gpu][histopyramid][extract]")
{
    Volume checkerboard = test::functionVolume({34, 27, 19}, [](uint32_t x, uint32_t y, uint32_t z) {
        return float((x + y + z) & 1u);
    }, "checkerboard");
    Mesh reference = extractMarchingCubes(checkerboard, 0.5f);
    for (bool weld : {true, false}) {
        ExtractionReport report = checkSameSurface(checkerboard, 0.5f, weld, &reference);
        REQUIRE(report.overflowRetries >= 1);
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("histopyramid extraction matches the CPU reference on the real datasets", "[gpu][histopyramid][extract][datasets]")
{
    test::forEachRealDataset([](const Volume& volume, float iso, const Mesh& reference) {
        checkSameSurface(volume, iso, true, &reference);
    });
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("histopyramid extraction refuses a volume larger than one storage binding and names the methods that take it",
          "[gpu][histopyramid][extract]")
{
    Context& context = test::gpuContext();
    uint64_t range = context.info().maxStorageBufferRange;
    if (range > (uint64_t(256) << 20)) {
        WARN("skipped: this device binds " << range << " bytes at once; the test builds a volume just larger");
        return;
    }
    // A float32 cube just over one binding (lavapipe: 128 MiB).
    uint32_t side = uint32_t(std::cbrt(double(range) / 4.0)) + 2;
    Volume volume = makeSyntheticVolume("sphere:" + std::to_string(side));
    REQUIRE(volume.byteSize() > range);
    REQUIRE_THROWS_WITH(extractIsosurface(context, volume, 0.5f, pyramidOptions(true)),
                        Catch::Contains("--method scan") && Catch::Contains("--method block"));
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("welded histopyramid: the vertex and triangle passes write different buffers, so no barrier between them",
          "[gpu][histopyramid][graph]")
{
    Context& context = test::gpuContext();
    Volume volume = makeSyntheticVolume("sphere:24");
    ExtractOptions options;
    options.method = "histopyramid";
    PreparedExtraction prepared = prepareGpuExtraction(context, volume, options);
    GraphExtraction extraction(context, *prepared.extractor, 0.5f);
    const GraphDesc& desc = extraction.graph().desc();
    const CompiledGraph& compiled = extraction.graph().compiled();
    size_t checked = 0;
    for (size_t p = 1; p < compiled.passes.size(); ++p) {
        if (desc.passes[compiled.passes[p].pass].name != "triangles")
            continue;
        REQUIRE(desc.passes[compiled.passes[p - 1].pass].name == "vertices");
        for (const Barrier& barrier : compiled.passes[p].barriers)
            UNSCOPED_INFO("barrier on " << desc.resources[barrier.resource].name);
        REQUIRE(compiled.passes[p].barriers.empty());
        ++checked;
    }
    REQUIRE(checked == 1);
    REQUIRE(extraction.run(0.5f).faceCount > 0);
    REQUIRE_NO_VALIDATION_MESSAGES();
}
