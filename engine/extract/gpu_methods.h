#pragma once
// The table of GPU extraction methods: one line per method in gpu_methods.cpp.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "extract/gpu_extractor.h"
#include "volume/gpu_volume.h"

namespace isoscope {

struct GpuMethod {
    std::string name;
    std::string summary;       // one line for `isoscope info --methods`
    // Which device forms of a volume it reads (may depend on the sample type).
    std::function<GpuVolumeUsage(const Volume&)> volumeUsage;
    std::function<std::unique_ptr<GpuExtractor>(Context&, const FieldSource&, const ExtractOptions&)> create;
};

const std::vector<GpuMethod>& gpuMethods();
const GpuMethod* findGpuMethod(const std::string& name);

} // namespace isoscope
