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
    return device;
}

} // namespace

TEST_CASE("auto picks block where the device runs it, else scan, and says why", "[extract]")
{
    ExtractOptions options;
    options.method = "auto";
    ExtractOptions resolved = resolveAutoMethod(deviceWith(true, true, 1024, 32), options);
    CHECK(resolved.method == "block");
    CHECK_THAT(resolved.methodChoice, Catch::Contains("fastest"));

    CHECK(resolveAutoMethod(deviceWith(false, true, 1024, 32), options).method == "scan");
    CHECK(resolveAutoMethod(deviceWith(true, false, 1024, 32), options).method == "scan");
    CHECK(resolveAutoMethod(deviceWith(true, true, 16, 4), options).method == "scan");
    CHECK_THAT(resolveAutoMethod(deviceWith(true, true, 16, 4), options).methodChoice, Catch::Contains("32-invocation"));
    // A block's rows, not its cells, share a workgroup: 8x8x8 runs in 128 invocations.
    ExtractOptions bigBlocks = options;
    bigBlocks.blockSize = {8, 8, 8};
    CHECK(resolveAutoMethod(deviceWith(true, true, 128, 32), bigBlocks).method == "block");
    ExtractOptions wideBlocks = options;
    wideBlocks.blockSize = {33, 1, 1};
    CHECK(resolveAutoMethod(deviceWith(true, true, 1024, 32), wideBlocks).method == "scan");

    ExtractOptions named = options;
    named.method = "histopyramid";
    CHECK(resolveAutoMethod(deviceWith(false, false, 64, 4), named).method == "histopyramid"); // a named method stays
    CHECK(resolveAutoMethod(deviceWith(false, false, 64, 4), named).methodChoice.empty());
}
