#pragma once
// The scan method's first pass over a slab (shaders/extract/scan/count.comp):
// each workgroup walks a column of tiles up the slab, classifies their points
// and sums their vertices, triangles and occupied points into one block sum
// per tile (the block-sum scan's level 0), so no per-point count is stored,
// and marks the spans with occupied points for the list pass.
#include "extract/scan/scan_layout.h"

namespace isoscope {

class BlockSumScan;
class Context;
class RenderGraph;

class ScanCountPass : public ScanPass {
public:
    ScanCountPass(Context& context, const SpecValues& values) : ScanPass(context, "extract/scan/count", values) {}
    void add(RenderGraph& graph, const ScanResources& r, const BlockSumScan& sums, const ScanSlab& slab,
             const float& iso) const;
};

} // namespace isoscope
