// `--method scan` produces the CPU reference's surface: the same triangles
// and vertex positions; welded, the same topology numbers too; as a soup,
// three vertices per triangle. Whole volumes, and volumes split into slabs by
// a small memory budget, on every synthetic field and the real datasets.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/context.h"
#include "extract/cpu/marching_cubes.h"
#include "extract/extract.h"
#include "extract/scan/slab_plan.h"
#include "gpu_test_context.h"
#include "extract_test_support.h"
#include "mesh_compare.h"
#include "volume/quantize.h"
#include "volume/synthetic.h"

using namespace isoscope;

namespace {

ExtractOptions scanOptions(bool weld, uint64_t budgetBytes = 0)
{
    ExtractOptions options;
    options.method = "scan";
    options.weld = weld;
    options.budgetBytes = budgetBytes;
    return options;
}

// The shared check (extract_test_support.h), plus what only the scan method
// promises: a soup has three vertices of its own per triangle.
void checkSameSurface(const Volume& volume, float iso, const ExtractOptions& options, const Mesh& reference)
{
    ExtractionReport report = test::requireSameAsReference(volume, iso, options, &reference);
    if (!options.weld)
        REQUIRE(report.mesh.positions.size() == 3 * report.mesh.faceCount());
    REQUIRE(report.auxDeviceBytes > 0);
}

void checkSameSurface(const Volume& volume, float iso, const ExtractOptions& options)
{
    checkSameSurface(volume, iso, options, extractMarchingCubes(volume, iso));
}

struct FieldCase {
    const char* spec;
    std::array<float, 3> isos;
};

// Sizes are not multiples of any workgroup size, and small: lavapipe is a CPU.
const FieldCase kFields[] = {
    {"cayley:37", {-0.012f, 0.1f, 0.5f}},
    {"sphere:33x29x31", {0.3f, 0.7f, 0.95f}},
    {"torus:41x38x23", {0.01f, 0.04f, 0.09f}},
    {"gyroid:35", {-0.6f, 0.05f, 0.7f}},
    {"marschner-lobb:41", {0.25f, 0.5f, 0.8f}},
};

} // namespace

TEST_CASE("scan extraction matches the CPU reference on every synthetic field, welded and as a soup", "[gpu][scan][extract]")
{
    for (const FieldCase& field : kFields) {
        Volume volume = makeSyntheticVolume(field.spec);
        for (float iso : field.isos) {
            Mesh reference = extractMarchingCubes(volume, iso);
            REQUIRE(reference.faceCount() > 0);
            checkSameSurface(volume, iso, scanOptions(true), reference);
            if (iso == field.isos[1])
                checkSameSurface(volume, iso, scanOptions(false), reference);
        }
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("scan extraction gives the CPU reference's surface for every count column and list workgroup",
          "[gpu][scan][extract]")
{
    // The rules (slab_plan.h) give columns of one tile and list workgroups
    // of a whole tile to volumes this small; every other shape is named here.
    Context& context = test::gpuContext();
    ScanTiling tiling = scanTiling(context);
    uint32_t subgroup = context.info().subgroupSize;
    std::vector<uint32_t> listSizes; // a subgroup, the narrow rule's, a whole tile's
    for (uint32_t size : {subgroup, std::max(64u, subgroup), tiling.workgroupSize})
        if (tiling.tileSpans % size == 0 && size <= tiling.workgroupSize &&
            std::find(listSizes.begin(), listSizes.end(), size) == listSizes.end())
            listSizes.push_back(size);
    REQUIRE(listSizes.size() >= 2);
    // One tile a plane; two a plane, the second of two spans; slabs whose planes end a column early.
    for (const char* spec : {"cayley:37", "cayley:33x86x19"}) {
        Volume volume = makeSyntheticVolume(spec);
        float iso = -0.012f;
        Mesh reference = extractMarchingCubes(volume, iso);
        REQUIRE(reference.faceCount() > 0);
        for (uint32_t column : {1u, 2u, 3u, 8u, 16u}) {
            for (uint32_t listSize : listSizes) {
                ExtractOptions options = scanOptions(true);
                options.scanColumnTiles = column;
                options.scanListWorkgroup = listSize;
                INFO("column " << column << ", list workgroup " << listSize);
                checkSameSurface(volume, iso, options, reference);
            }
            ExtractOptions slabbed = scanOptions(column != 3, scanSlabBytes(context, volume.dims, 5, true, column != 3));
            slabbed.scanColumnTiles = column;
            INFO("column " << column << ", slabs of 5 layers");
            checkSameSurface(volume, iso, slabbed, reference);
        }
    }
    ExtractOptions bad = scanOptions(true);
    bad.scanListWorkgroup = tiling.workgroupSize * 2;
    REQUIRE_THROWS_WITH(extractIsosurface(context, makeSyntheticVolume("cayley:9"), 0.0f, bad),
                        Catch::Contains("--scan-list-workgroup"));
    bad = scanOptions(true);
    bad.scanColumnTiles = 17;
    REQUIRE_THROWS_WITH(extractIsosurface(context, makeSyntheticVolume("cayley:9"), 0.0f, bad),
                        Catch::Contains("--scan-column"));
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("scan passes take their shape from the slab's size", "[gpu][scan]")
{
    Context& context = test::gpuContext();
    ScanTiling tiling = scanTiling(context);
    uint32_t subgroup = context.info().subgroupSize;
    uint32_t narrow = std::max(64u, subgroup);
    bool narrowFits = narrow < tiling.workgroupSize && tiling.tileSpans % narrow == 0;
    REQUIRE(scanListWorkgroup(tiling, subgroup, kScanNarrowListFromTiles - 1) == tiling.workgroupSize);
    REQUIRE(scanListWorkgroup(tiling, subgroup, kScanNarrowListFromTiles) ==
            (narrowFits ? narrow : tiling.workgroupSize));
    REQUIRE(scanListWorkgroup(tiling, subgroup, 1, subgroup) == subgroup);
    // Columns: 16 tiles where that leaves 4096 count workgroups, fewer below, one for small volumes.
    std::array<uint32_t, 3> large{1024, 1024, 1024}, small{128, 96, 24};
    REQUIRE(scanColumnTiles(tiling, large, 1024) == 16);
    REQUIRE(scanCountGroups(tiling, large, 1024, 16) >= 4096);
    uint32_t half = scanColumnTiles(tiling, {512, 512, 512}, 512); // 16 would leave too few workgroups
    REQUIRE(half < 16);
    REQUIRE(scanCountGroups(tiling, {512, 512, 512}, 512, half) >= 4096);
    REQUIRE(scanCountGroups(tiling, {512, 512, 512}, 512, half * 2) < 4096);
    REQUIRE(scanColumnTiles(tiling, small, 24) == 1);
    REQUIRE(scanCountGroups(tiling, small, 24, 1) == scanPlaneTiles(tiling, small) * 24);
    REQUIRE(scanColumnTiles(tiling, small, 24, 4) == 4);
    REQUIRE(scanCountGroups(tiling, small, 24, 4) == scanPlaneTiles(tiling, small) * 6);
}

TEST_CASE("scan extraction split into slabs by a small budget gives the same welded mesh", "[gpu][scan][extract][slab]")
{
    Context& context = test::gpuContext();
    for (const FieldCase& field : kFields) {
        Volume volume = makeSyntheticVolume(field.spec);
        float iso = field.isos[1];
        Mesh reference = extractMarchingCubes(volume, iso);
        for (uint32_t layers : {1u, 4u}) {
            for (bool weld : {true, false}) {
                uint64_t budget = scanSlabBytes(context, volume.dims, layers, true, weld);
                SlabPlan plan = planSlabs(context, volume.dims, budget, weld);
                uint32_t cells = volume.dims[2] - 1;
                REQUIRE(plan.slabCount == (cells + layers - 1) / layers);
                REQUIRE(plan.cellLayersPerSlab == (cells + plan.slabCount - 1) / plan.slabCount); // balanced
                checkSameSurface(volume, iso, scanOptions(weld, budget), reference);
            }
        }
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("scan extraction binds each slab's own planes of a volume larger than one storage binding",
          "[gpu][scan][extract][slab]")
{
    // A float32 1024³ volume is 4 GiB, more than one binding on most devices.
    // The same path at lavapipe's scale: a lowered binding limit. 64x64
    // float32 planes are 16 KiB, so at 256 KiB the volume's planes, not the
    // list or the block sums, decide how thick a slab may be.
    Context& context = test::gpuContext();
    const uint64_t limit = 256 * 1024;
    Volume field = makeSyntheticVolume("gyroid:64");
    // uint8 planes of 61x59 samples (3599 bytes) start at every byte of a
    // word: the bound range starts below its first plane (firstSample > 0).
    Volume sphere = makeSyntheticVolume("sphere:61x59x64");
    Volume bytes = quantizeToUInt8(sphere);
    // int16 planes of 7198 bytes: the range starts an odd number of samples
    // below its first plane for some slabs (the 16-bit half is picked by parity).
    Volume shorts = quantize(sphere, ScalarType::Int16);
    for (const Volume* volume : {&field, &bytes, &shorts}) {
        uint32_t sampleBytes = uint32_t(scalarSize(volume->type));
        uint64_t budget = volume != &field ? scanSlabBytes(context, volume->dims, 5, true, true) : 0;
        ExtractOptions options = scanOptions(true, budget);
        options.maxBindingBytes = limit;
        SlabPlan plan = planSlabs(context, volume->dims, budget ? budget : context.allocator().availableDeviceBytes() / 2,
                                  true, 0, {sampleBytes, limit});
        INFO(volume->source << ": " << plan.slabCount << " slabs of " << plan.cellLayersPerSlab << " layers");
        REQUIRE(plan.slabCount > 2);
        if (volume == &field)
            REQUIRE(volume->byteSize() >= 4 * limit);
        bool startsInsideAWord = false; // uint8: not on a word; int16: an odd sample
        for (uint32_t slab = 0; slab < plan.slabCount; ++slab) {
            uint32_t z0 = slab * plan.cellLayersPerSlab;
            uint32_t planes = std::min(plan.cellLayersPerSlab, volume->dims[2] - 1 - z0) + 1;
            SlabVolumeRange range = slabVolumeRange(context, volume->dims, sampleBytes, z0, planes);
            uint64_t planeBytes = uint64_t(volume->dims[0]) * volume->dims[1] * sampleBytes;
            // The planes the passes read (z0 - 1 .. z0 + planes, for the
            // gradients), inside the binding and the buffer, nothing more.
            REQUIRE(range.firstPlane == (z0 > 0 ? z0 - 1 : 0));
            REQUIRE(range.offset % context.info().minStorageBufferOffsetAlignment == 0);
            REQUIRE(range.offset % 16 == 0); // float32 and 16-bit samples are read four at a time
            REQUIRE(range.offset + range.firstSample * sampleBytes == range.firstPlane * planeBytes);
            uint32_t endPlane = std::min(z0 + planes + 1, volume->dims[2]);
            REQUIRE(range.offset + range.bytes >= endPlane * planeBytes);
            REQUIRE(range.offset + range.bytes <= ((volume->byteSize() + 3) & ~uint64_t(3)));
            REQUIRE(range.bytes % 4 == 0);
            REQUIRE(range.bytes <= limit);
            startsInsideAWord = startsInsideAWord || range.firstSample % (4 / sampleBytes) != 0;
        }
        if (volume != &field)
            REQUIRE(startsInsideAWord);
        for (float iso : test::spreadIsovalues(*volume)) {
            Mesh reference = extractMarchingCubes(*volume, iso);
            REQUIRE(reference.faceCount() > 0);
            checkSameSurface(*volume, iso, options, reference);
        }
    }
    // A limit below three planes leaves no slab that fits: a message, not a crash.
    ExtractOptions tooSmall = scanOptions(true);
    tooSmall.maxBindingBytes = 2 * 64 * 64 * 4;
    REQUIRE_THROWS_WITH(extractIsosurface(context, field, 0.0f, tooSmall), Catch::Contains("one cell layer"));
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("scan extraction holds no more auxiliary memory than planned, within allocation rounding", "[gpu][scan][extract]")
{
    Context& context = test::gpuContext();
    Volume volume = makeSyntheticVolume("torus:41x38x23");
    for (uint64_t budget : {uint64_t(0), scanSlabBytes(context, volume.dims, 3, true, true)}) {
        SlabPlan plan = planSlabs(context, volume.dims, budget ? budget : context.allocator().availableDeviceBytes() / 2, true);
        ExtractionReport report = extractIsosurface(context, volume, 0.04f, scanOptions(true, budget));
        // The plan counts the case table, which the report gives apart.
        uint64_t reported = report.auxDeviceBytes + report.tableDeviceBytes;
        INFO("budget " << budget << " planned " << plan.plannedBytes << " reported " << report.auxDeviceBytes
                       << " + tables " << report.tableDeviceBytes);
        REQUIRE(report.tableDeviceBytes > 0);
        // The plan bounds what the extraction holds (its work buffers are the
        // render graph's transients, which may share memory where their
        // lifetimes do not overlap, so a little less), and is not loose.
        REQUIRE(reported <= plan.plannedBytes + 16 * 4096); // 16 buffers, each rounded up
        REQUIRE(reported >= plan.plannedBytes * 9 / 10);
        REQUIRE(report.transientDeviceBytes > 0);
        if (budget)
            REQUIRE(plan.slabCount == 8);
    }
    REQUIRE_THROWS_WITH(planSlabs(context, volume.dims, 1000, true), Catch::Contains("one cell layer"));
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("scan extraction gives an empty mesh for an isovalue outside the data's range", "[gpu][scan][extract]")
{
    Volume volume = makeSyntheticVolume("sphere:20");
    for (float iso : {float(volume.stats.max) + 1.0f, float(volume.stats.min) - 1.0f})
        for (bool weld : {true, false}) {
            ExtractionReport report = extractIsosurface(test::gpuContext(), volume, iso, scanOptions(weld));
            REQUIRE(report.mesh.faceCount() == 0);
            REQUIRE(report.mesh.positions.empty());
        }
    // uint8 compares four samples with an integer threshold at once: below
    // 0, 0 itself (every sample inside), past 255 and NaN (none inside).
    Volume bytes = quantizeToUInt8(makeSyntheticVolume("sphere:21x19x17"));
    for (float iso : {-3.5f, 0.0f, 255.5f, 1000.0f, std::nanf("")}) {
        ExtractionReport report = extractIsosurface(test::gpuContext(), bytes, iso, scanOptions(true));
        REQUIRE(report.mesh.faceCount() == 0);
    }
    checkSameSurface(bytes, 255.0f, scanOptions(true)); // only the samples equal to 255 inside
    checkSameSurface(bytes, 0.5f, scanOptions(true));   // every sample but the zeros inside
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("scan extraction handles volumes two samples thin on each axis", "[gpu][scan][extract]")
{
    for (const char* spec : {"sphere:2x17x13", "sphere:19x2x11", "sphere:13x15x2", "gyroid:2x2x9"}) {
        Volume volume = makeSyntheticVolume(spec);
        for (bool weld : {true, false})
            checkSameSurface(volume, 0.5f, scanOptions(weld));
    }
    Volume thinZ = makeSyntheticVolume("gyroid:23x21x2");
    checkSameSurface(thinZ, 0.0f, scanOptions(true, scanSlabBytes(test::gpuContext(), thinZ.dims, 1, true, true)));
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("scan extraction matches the CPU reference for every sample type, on rows that do not start on a word boundary",
          "[gpu][scan][extract]")
{
    // Widths 36, 35 and 33: rows of uint8 samples start at every byte of a
    // word, and spans end short of 16 points; the uint8 path reads a line
    // of 17 samples as one 16-byte vector and a word where it starts on 16
    // bytes (every fourth row at width 36), else as five words
    // (line_inside_bits.glsl). 16-bit lines are read four samples a load
    // where they start on 8 bytes: all of them at width 36, some at 35 and
    // 33 (the rest sample by sample). Both 16-bit
    // types set the top bit of some samples (int16 below zero, uint16 above
    // 32767): reading one type's samples as the other's changes the surface.
    for (uint32_t width : {36u, 35u, 33u}) {
        Volume field = test::functionVolume({width, 21, 17}, [](uint32_t x, uint32_t y, uint32_t z) {
            float dx = x - 17.0f, dy = y - 10.0f, dz = z - 8.0f;
            return 100.0f - 0.4f * (dx * dx + dy * dy + dz * dz);
        });
        Volume bytes = quantizeToUInt8(field);
        REQUIRE(bytes.type == ScalarType::UInt8);
        for (const Volume* volume : {&bytes, &field})
            for (float iso : test::spreadIsovalues(*volume))
                for (bool weld : {true, false})
                    checkSameSurface(*volume, iso, scanOptions(weld));
        Volume shorts = quantize(field, ScalarType::Int16);
        Volume ushorts = quantize(field, ScalarType::UInt16);
        REQUIRE(shorts.stats.min < 0.0);
        REQUIRE(ushorts.stats.max > 32767.0);
        for (const Volume* volume : {&shorts, &ushorts})
            for (float iso : test::spreadIsovalues(*volume))
                for (bool weld : {true, false})
                    checkSameSurface(*volume, iso, scanOptions(weld));
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("scan extraction treats NaN and Inf samples as outside, as the CPU reference", "[gpu][scan][extract]")
{
    Volume volume = test::sphereWithNonFiniteSamples();
    for (bool weld : {true, false})
        checkSameSurface(volume, 0.0f, scanOptions(weld));
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("scan extraction grows its occupied-point list when the surface crosses more points than it guessed, "
          "into thinner slabs under a budget",
          "[gpu][scan][extract][slab]")
{
    Context& context = test::gpuContext();
    // Nearly every point owns a crossed edge: more than scanListCapacity
    // guesses for a smooth surface, so the first run overflows the list.
    Volume checkerboard = test::functionVolume({50, 40, 25}, [](uint32_t x, uint32_t y, uint32_t z) {
        return float((x + y + z) & 1u);
    }, "checkerboard");
    REQUIRE(scanListCapacity(checkerboard.dims, 24) < 50 * 40 * 25 / 2);
    REQUIRE(scanListCapacity(checkerboard.dims, 4) < 50 * 40 * 5);
    Mesh reference = extractMarchingCubes(checkerboard, 0.5f);
    for (bool weld : {true, false}) {
        ExtractionReport report = test::requireSameAsReference(checkerboard, 0.5f, scanOptions(weld), &reference);
        REQUIRE(report.overflowRetries >= 1);
    }
    // Under a budget planned for 4-layer slabs with the guessed list, the
    // grown lists no longer fit those slabs: the method plans thinner ones.
    uint64_t budget = scanSlabBytes(context, checkerboard.dims, 4, true, true);
    REQUIRE(planSlabs(context, checkerboard.dims, budget, true).slabCount == 6);
    ExtractionReport report = test::requireSameAsReference(checkerboard, 0.5f, scanOptions(true, budget), &reference);
    REQUIRE(report.overflowRetries >= 1);
    uint64_t slabs = 0;
    for (const auto& [name, count] : report.workCounts)
        if (name == "slabs")
            slabs = count;
    REQUIRE(slabs > 6);
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("scan extraction matches the CPU reference on the real datasets", "[gpu][scan][extract][datasets]")
{
    test::forEachRealDataset([](const Volume& volume, float iso, const Mesh& reference) {
        checkSameSurface(volume, iso, scanOptions(true), reference);
    });
    REQUIRE_NO_VALIDATION_MESSAGES();
}
