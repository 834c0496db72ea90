#include "extract/auto_method.h"

#include <cstdint>


namespace isoscope {

AutoMethodChoice chooseAutoMethod(const DeviceInfo& device, const Volume& volume, const ExtractOptions& options)
{
    // What the block method needs (block_extractor.cpp): its narrow shared
    // arrays, workgroups of 32 invocations, and a block row in one word.
    bool blockRuns = device.features.shaderInt8 && device.features.shaderInt16 && device.maxWorkgroupInvocations() >= 32 &&
                     options.blockSize[0] <= 32;
    if (blockRuns || !options.analyticField.empty())
        return {"block", "block: the fastest method on every volume measured (docs/BENCHMARKS.md, \"Where each method wins\")"};
    const char* noBlock = "block cannot run here (it needs 8- and 16-bit shader integers, 32-invocation workgroups "
                          "and blocks at most 32 wide)";
    (void)volume; // the rule below does not depend on it any more: see the reason
    return {"scan", std::string("scan: ") + noBlock +
                        "; scan (spans marked by the count pass) was faster than histopyramid on every volume measured "
                        "from 8 M points up (Cayley 256³-1024³, uint8, int16 and float32, the sparse sphere, the engine "
                        "CT), by 1.2-1.6×; on the two smallest real volumes (under 0.3 M points) histopyramid was "
                        "2% and 12% faster, under 0.11 ms either way"};
}

ExtractOptions resolveAutoMethod(const DeviceInfo& device, const Volume& volume, ExtractOptions options)
{
    if (options.method == "auto") {
        AutoMethodChoice choice = chooseAutoMethod(device, volume, options);
        options.method = choice.method;
        options.methodChoice = choice.why;
    }
    return options;
}

} // namespace isoscope
