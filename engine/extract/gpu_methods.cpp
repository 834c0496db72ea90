#include "extract/gpu_methods.h"

#include "extract/block/block_extractor.h"
#include "extract/scan/scan_extractor.h"

namespace isoscope {

const std::vector<GpuMethod>& gpuMethods()
{
    static const std::vector<GpuMethod> methods = {
        {"block", "Parallel Marching Blocks: per-block ranges, active-block list, welded indexed mesh",
         GpuVolumeUsage{.image = true, .buffer = true, .bufferInRanges = true}, createBlockExtractor},
        {"scan", "classic prefix-sum pipeline (CUDA SDK sample): classify, compact, scan, generate; z-slabs under a memory budget",
         GpuVolumeUsage{false, true}, createScanExtractor},
    };
    return methods;
}

const GpuMethod* findGpuMethod(const std::string& name)
{
    for (const GpuMethod& method : gpuMethods())
        if (method.name == name)
            return &method;
    return nullptr;
}

} // namespace isoscope
