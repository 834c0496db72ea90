#include "extract/gpu_methods.h"

namespace isoscope {

const std::vector<GpuMethod>& gpuMethods()
{
    static const std::vector<GpuMethod> methods = {
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
