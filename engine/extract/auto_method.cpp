#include "extract/auto_method.h"

#include <cstdint>

#include "extract/histopyramid/histopyramid_levels.h"

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
    constexpr uint64_t kHistoPyramidFromPoints = uint64_t(1) << 27; // 512³
    if (volume.sampleCount() >= kHistoPyramidFromPoints && volume.byteSize() <= device.maxStorageBufferRange &&
        histoPyramidShape(volume.dims).totalWords * 4 <= device.maxStorageBufferRange)
        return {"histopyramid", std::string("histopyramid: ") + noBlock +
                                    "; from 512³ points up histopyramid was faster than scan on every volume measured"};
    return {"scan", std::string("scan: ") + noBlock +
                        "; below 512³ points, or where histopyramid's pyramid or volume exceeds one storage binding, "
                        "scan was the faster of the other two"};
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
