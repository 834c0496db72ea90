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
    ExtractOptions bigBlocks = options;
    bigBlocks.blockSize = {8, 8, 8}; // 512 invocations
    CHECK(resolveAutoMethod(deviceWith(true, true, 256, 32), bigBlocks).method == "scan");
    CHECK_THAT(resolveAutoMethod(deviceWith(true, true, 256, 32), bigBlocks).methodChoice, Catch::Contains("512"));
    CHECK(resolveAutoMethod(deviceWith(true, true, 512, 32), bigBlocks).method == "block");

    ExtractOptions named = options;
    named.method = "histopyramid";
    CHECK(resolveAutoMethod(deviceWith(false, false, 64, 4), named).method == "histopyramid"); // a named method stays
    CHECK(resolveAutoMethod(deviceWith(false, false, 64, 4), named).methodChoice.empty());
}
