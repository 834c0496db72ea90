#include "extract/gpu_methods.h"

#include "extract/block/block_extractor.h"

namespace isoscope {

const std::vector<GpuMethod>& gpuMethods()
{
    static const std::vector<GpuMethod> methods = {
        {"block", "Parallel Marching Blocks: per-block ranges, active-block list, welded indexed mesh",
         GpuVolumeUsage{.image = true, .buffer = false}, createBlockExtractor},
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
