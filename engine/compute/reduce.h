#pragma once
// Device-wide sum of uint32 or uvec2 elements into 64-bit totals, as
// render-graph passes (passes 1 and 2 of scan_passes.h).
//
//   Reduction sum(context, 1, count);
//   sum.addPasses(graph, {values}, count, {total});  // graph buffers; one uint64 per component
//
// Totals are exact up to 2^64 (components × uint64, low word first). Any
// count from 0 to maxCount. The graph places the barriers, as for ExclusiveScan.
// Cost: reads the input once; two passes up to 33.5M elements, four beyond.
#include "compute/scan_passes.h"

namespace isoscope {

class Reduction {
public:
    Reduction(Context& context, uint32_t components, uint64_t maxCount, const ScanOptions& options = {});

    void addPasses(RenderGraph& graph, GraphSpan input, uint64_t count, GraphSpan totals,
                   const std::string& name = "reduction") const;

private:
    ScanPasses passes_;
};

} // namespace isoscope
