#include "extract/auto_method.h"

#include <cstdint>

namespace isoscope {

AutoMethodChoice chooseAutoMethod(const DeviceInfo& device, const ExtractOptions& options)
{
    // What the block method needs (block_extractor.cpp): its narrow shared
    // arrays, workgroups of 32 invocations, and a block row in one word.
    bool blockRuns = device.features.shaderInt8 && device.features.shaderInt16 && device.maxWorkgroupInvocations() >= 32 &&
                     options.blockSize[0] <= 32;
    if (blockRuns || !options.analyticField.empty())
        return {"block", "block: the fastest method on every volume measured (docs/BENCHMARKS.md, \"Where each method wins\")"};
    return {"scan", "scan: block cannot run here (it needs 8- and 16-bit shader integers, 32-invocation workgroups "
                    "and blocks at most 32 wide); scan was faster than histopyramid in 8 of 9 measurements"};
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
