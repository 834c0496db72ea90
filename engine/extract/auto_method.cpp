#include "extract/auto_method.h"

#include <cstdint>

namespace isoscope {

AutoMethodChoice chooseAutoMethod(const DeviceInfo& device, const ExtractOptions& options)
{
    // What the block method needs (block_extractor.cpp): its narrow shared
    // arrays, and a workgroup of a block's cells in whole subgroups.
    uint64_t cells = uint64_t(options.blockSize[0]) * options.blockSize[1] * options.blockSize[2];
    uint64_t group = (cells + device.subgroupSize - 1) / device.subgroupSize * device.subgroupSize;
    bool blockRuns = device.features.shaderInt8 && device.features.shaderInt16 && group <= device.maxWorkgroupInvocations() &&
                     device.maxWorkgroupInvocations() >= 32;
    if (blockRuns || !options.analyticField.empty())
        return {"block", "block: the fastest method on every volume measured (docs/BENCHMARKS.md, \"Where each method wins\")"};
    return {"scan", "scan: the device lacks what block needs (8- and 16-bit shader integers, or " +
                        std::to_string(group) + "-invocation workgroups); scan was faster than histopyramid in "
                        "8 of 9 measurements"};
}

ExtractOptions resolveAutoMethod(const DeviceInfo& device, ExtractOptions options)
{
    if (options.method == "auto") {
        AutoMethodChoice choice = chooseAutoMethod(device, options);
        options.method = choice.method;
        options.methodChoice = choice.why;
    }
    return options;
}

} // namespace isoscope
