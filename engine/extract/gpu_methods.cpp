#include "extract/gpu_methods.h"

#include "extract/block/block_extractor.h"
#include "extract/scan/scan_extractor.h"

namespace isoscope {

const std::vector<GpuMethod>& gpuMethods()
{
    static const std::vector<GpuMethod> methods = {
        {"block", "Parallel Marching Blocks: per-block ranges, active-block list, welded indexed mesh",
         
         // The raw bytes speed up the value-range pass for 8- and 16-bit
         // samples only: a float texel fetch already brings 4 bytes.
         [](const Volume& v) {
             return GpuVolumeUsage{.image = true, .buffer = scalarSize(v.type) < 4, .bufferInRanges = true};
         },
         createBlockExtractor},
        {"scan", "classic prefix-sum pipeline (CUDA SDK sample): classify, compact, scan, generate; z-slabs under a memory budget",
         [](const Volume&) { return GpuVolumeUsage{.image = false, .buffer = true}; }, createScanExtractor},
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
