// --method auto: block where the device runs it, else scan, with the reason.
#include <catch2/catch.hpp>

#include "extract/auto_method.h"

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
    ExtractOptions resolved = resolveAutoMethod(deviceWith(true, true, 1024, 32), small, options);
    CHECK(resolved.method == "block");
    CHECK_THAT(resolved.methodChoice, Catch::Contains("fastest"));
    CHECK(resolveAutoMethod(deviceWith(true, true, 1024, 32), volumeOf({1024, 1024, 1024}), options).method == "block");

    CHECK(resolveAutoMethod(deviceWith(false, true, 1024, 32), small, options).method == "scan");
    CHECK(resolveAutoMethod(deviceWith(true, false, 1024, 32), small, options).method == "scan");
    CHECK(resolveAutoMethod(deviceWith(true, true, 16, 4), small, options).method == "scan");
    CHECK_THAT(resolveAutoMethod(deviceWith(true, true, 16, 4), small, options).methodChoice,
               Catch::Contains("32-invocation"));
    // A block's rows, not its cells, share a workgroup: 8x8x8 runs in 128 invocations.
    ExtractOptions bigBlocks = options;
    bigBlocks.blockSize = {8, 8, 8};
    CHECK(resolveAutoMethod(deviceWith(true, true, 128, 32), small, bigBlocks).method == "block");
    ExtractOptions wideBlocks = options;
    wideBlocks.blockSize = {33, 1, 1};
    CHECK(resolveAutoMethod(deviceWith(true, true, 1024, 32), small, wideBlocks).method == "scan");

    // Without block: scan at every size and type (it beat histopyramid from 8 M points up).
    DeviceInfo noBlock = deviceWith(false, false, 1024, 32);
    for (ScalarType type : {ScalarType::UInt8, ScalarType::Int16, ScalarType::Float32})
        for (std::array<uint32_t, 3> dims : {std::array<uint32_t, 3>{64, 64, 64}, {512, 512, 512}, {1024, 1024, 1024}}) {
            ExtractOptions chosen = resolveAutoMethod(noBlock, volumeOf(dims, type), options);
            CHECK(chosen.method == "scan");
            CHECK_THAT(chosen.methodChoice, Catch::Contains("histopyramid"));
        }

    ExtractOptions named = options;
    named.method = "histopyramid";
    CHECK(resolveAutoMethod(deviceWith(false, false, 64, 4), small, named).method == "histopyramid"); // a named method stays
    CHECK(resolveAutoMethod(deviceWith(false, false, 64, 4), small, named).methodChoice.empty());
}
