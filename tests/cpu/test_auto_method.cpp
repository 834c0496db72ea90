// --method auto: block where the device runs it; else scan below 512³ points,
// and from 512³ up histopyramid on sparse surfaces, scan on dense ones; with the reason.
#include <catch2/catch.hpp>

#include "extract/auto_method.h"
#include "extract/cpu/marching_cubes.h"
#include "volume/synthetic.h"

using namespace isoscope;

namespace {

DeviceInfo deviceWith(bool int8, bool int16, uint32_t invocations, uint32_t subgroup)
{
    DeviceInfo device;
    device.subgroupSize = subgroup;
    device.maxComputeWorkGroupInvocations = invocations;
    device.maxComputeWorkgroupSubgroups = invocations / subgroup;
    device.features.shaderInt8 = int8;
    device.features.shaderInt16 = int16;
    device.maxStorageBufferRange = uint64_t(4) << 30;
    return device;
}

// Only dims and type: the rule does not read samples.
Volume volumeOf(std::array<uint32_t, 3> dims, ScalarType type = ScalarType::UInt8)
{
    Volume volume;
    volume.dims = dims;
    volume.type = type;
    return volume;
}

} // namespace

TEST_CASE("auto picks block where the device runs it, else scan, and says why", "[extract]")
{
    ExtractOptions options;
    options.method = "auto";
    Volume small = volumeOf({256, 256, 256});
    ExtractOptions resolved = resolveAutoMethod(deviceWith(true, true, 1024, 32), small, 0.5f, options);
    CHECK(resolved.method == "block");
    CHECK_THAT(resolved.methodChoice, Catch::Contains("fastest"));
    CHECK(resolveAutoMethod(deviceWith(true, true, 1024, 32), volumeOf({1024, 1024, 1024}), 0.5f, options).method == "block");

    CHECK(resolveAutoMethod(deviceWith(false, true, 1024, 32), small, 0.5f, options).method == "scan");
    CHECK(resolveAutoMethod(deviceWith(true, false, 1024, 32), small, 0.5f, options).method == "scan");
    CHECK(resolveAutoMethod(deviceWith(true, true, 16, 4), small, 0.5f, options).method == "scan");
    CHECK_THAT(resolveAutoMethod(deviceWith(true, true, 16, 4), small, 0.5f, options).methodChoice,
               Catch::Contains("32-invocation"));
    // A block's rows, not its cells, share a workgroup: 8x8x8 runs in 128 invocations.
    ExtractOptions bigBlocks = options;
    bigBlocks.blockSize = {8, 8, 8};
    CHECK(resolveAutoMethod(deviceWith(true, true, 128, 32), small, 0.5f, bigBlocks).method == "block");
    ExtractOptions wideBlocks = options;
    wideBlocks.blockSize = {33, 1, 1};
    CHECK(resolveAutoMethod(deviceWith(true, true, 1024, 32), small, 0.5f, wideBlocks).method == "scan");

    // Without block, below 512³ points: scan at every type and isovalue, the volume's samples unread.
    DeviceInfo noBlock = deviceWith(false, false, 1024, 32);
    for (ScalarType type : {ScalarType::UInt8, ScalarType::Int16, ScalarType::Float32})
        for (std::array<uint32_t, 3> dims : {std::array<uint32_t, 3>{64, 64, 64}, {511, 512, 512}, {256, 256, 1024}}) {
            ExtractOptions chosen = resolveAutoMethod(noBlock, volumeOf(dims, type), 0.5f, options);
            CHECK(chosen.method == "scan");
            CHECK_THAT(chosen.methodChoice, Catch::Contains("below 512³"));
        }
    // From 512³ up without samples on the host, or before the isovalue is known: scan.
    for (std::optional<float> iso : {std::optional<float>(0.5f), std::optional<float>()}) {
        ExtractOptions chosen = resolveAutoMethod(noBlock, volumeOf({1024, 1024, 1024}), iso, options);
        CHECK(chosen.method == "scan");
        CHECK_THAT(chosen.methodChoice, Catch::Contains(iso ? "not on the host" : "before the isovalue"));
    }

    ExtractOptions named = options;
    named.method = "histopyramid";
    CHECK(resolveAutoMethod(deviceWith(false, false, 64, 4), small, 0.5f, named).method == "histopyramid"); // a named method stays
    CHECK(resolveAutoMethod(deviceWith(false, false, 64, 4), small, 0.5f, named).methodChoice.empty());
}

namespace {

// 512³ uint8 samples (the rule's least size) set by `value`, written row by row.
Volume filled512(uint8_t (*value)(uint32_t x, uint32_t y, uint32_t z))
{
    Volume volume = volumeOf({512, 512, 512});
    volume.data.resize(volume.byteSize());
    for (uint32_t z = 0; z < 512; ++z)
        for (uint32_t y = 0; y < 512; ++y)
            for (uint32_t x = 0; x < 512; ++x)
                volume.data[volume.index(x, y, z)] = std::byte(value(x, y, z));
    return volume;
}

} // namespace

TEST_CASE("auto without block picks histopyramid for a sparse surface and scan for a dense one from 512³ up",
          "[extract]")
{
    DeviceInfo noBlock = deviceWith(false, false, 1024, 32);
    ExtractOptions options;
    options.method = "auto";
    // A plane across the volume: 2 triangles in each cell of one layer (0.39% of cells).
    Volume plane = filled512([](uint32_t, uint32_t, uint32_t z) { return uint8_t(z < 200 ? 0 : 255); });
    ExtractOptions sparse = resolveAutoMethod(noBlock, plane, 127.5f, options);
    CHECK(sparse.method == "histopyramid");
    CHECK_THAT(sparse.methodChoice, Catch::Contains("under 1.2%"));
    // Cubes of 2 samples alternating: most cells cut.
    Volume checker = filled512([](uint32_t x, uint32_t y, uint32_t z) { return uint8_t(((x ^ y ^ z) & 2) ? 255 : 0); });
    ExtractOptions dense = resolveAutoMethod(noBlock, checker, 127.5f, options);
    CHECK(dense.method == "scan");
    CHECK_THAT(dense.methodChoice, Catch::Contains("1.2% or more"));
    // No surface at all is sparse too.
    CHECK(resolveAutoMethod(noBlock, plane, 300.0f, options).method == "histopyramid");
}

TEST_CASE("the surface density estimate is the reference's triangles per cell", "[extract]")
{
    struct Case {
        const char* spec;
        float iso;
    };
    // Up to 2^17 cells every cell is read: the estimate is the count. Above, 2^17 cells at random.
    for (Case c : {Case{"cayley:48", -0.012f}, Case{"gyroid:40", 0.1f}, Case{"sphere:64", 0.5f}, Case{"cayley:150", -0.012f},
                   Case{"torus:170x150x140", 0.04f}}) {
        Volume volume = makeSyntheticVolume(c.spec);
        double cells = double(volume.dims[0] - 1) * (volume.dims[1] - 1) * (volume.dims[2] - 1);
        double reference = double(extractMarchingCubes(volume, c.iso).faceCount()) / cells;
        std::optional<double> estimate = estimateTriangleDensity(volume, c.iso);
        INFO(c.spec << " iso " << c.iso << ": reference " << reference << ", estimate " << (estimate ? *estimate : -1.0));
        REQUIRE(estimate);
        REQUIRE(reference > 0.0);
        CHECK(std::abs(*estimate / reference - 1.0) < (cells <= double(1 << 17) ? 0.02 : 0.1));
    }
    CHECK_FALSE(estimateTriangleDensity(volumeOf({600, 600, 600}), 0.5f)); // no samples on the host
}
