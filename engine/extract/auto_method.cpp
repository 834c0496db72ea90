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
                        "; scan was faster than histopyramid on the dense and the real volumes measured (Cayley "
                        "1024³ uint8 1.06×, the engine CT 1.26-1.32×, fMRI 1.11×, the anatomical volume 1.07×) and "
                        "as fast on Cayley 512³ float32; histopyramid was 1.3× faster only on the sparse sphere "
                        "(docs/BENCHMARKS.md, \"Scan against histopyramid as landed\", H100, 2026-11-26)"};
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
