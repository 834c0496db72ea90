#include "extract/gpu_methods.h"

#include "extract/block/block_extractor.h"
#include "extract/dual/dual_extractor.h"
#include "extract/histopyramid/histopyramid_extractor.h"
#include "extract/scan/scan_extractor.h"

namespace isoscope {

const std::vector<GpuMethod>& gpuMethods()
{
    static const std::vector<GpuMethod> methods = {
        {"block", "Parallel Marching Blocks: per-block ranges, active-block list, welded indexed mesh",
         
         // The raw bytes speed up the value-range pass for every sample type
         // (16-byte loads against one texel a fetch), at the cost of a second
         // copy of the volume, which prepareGpuExtraction leaves out where the
         // device has no room for it.
         [](const Volume&) {
             return GpuVolumeUsage{.image = true, .buffer = true, .bufferInRanges = true, .bufferOptional = true};
         },
         createBlockExtractor},
        {"scan", "classic prefix-sum pipeline (CUDA SDK sample): classify, compact, scan, generate; z-slabs under a memory budget",
         [](const Volume&) { return GpuVolumeUsage{.image = false, .buffer = true, .bufferInRanges = true}; },
         createScanExtractor},
        {"histopyramid", "HistoPyramid: a count pyramid over the grid points, one traversal per vertex and triangle; welded indexed mesh",
         [](const Volume&) { return GpuVolumeUsage{.image = false, .buffer = true}; },
         createHistoPyramidExtractor},
        {"dual", "Dual Marching Cubes: one vertex per MC polygon on the trilinear surface, one quad per crossed grid edge (edge hash table)",
         // The classification's value ranges read the raw words (the block
         // method's min_max_words); rows that are not whole words need the image.
         [](const Volume& volume) {
             return GpuVolumeUsage{.image = uint64_t(volume.dims[0]) * scalarSize(volume.type) % 4 != 0,
                                   .buffer = true};
         },
         createDualExtractor},
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
