#pragma once
// The scan method's second pass over a slab (shaders/extract/scan/list.comp):
// each tile classifies its points again and, from its block offsets, writes
// the occupied points in point order with their vertex and triangle offsets,
// and where each row's entries start.
#include "extract/scan/scan_layout.h"

namespace isoscope {

class BlockSumScan;
class Context;
class RenderGraph;

class ScanListPass : public ScanPass {
public:
    ScanListPass(Context& context, const SpecValues& values) : ScanPass(context, "extract/scan/list", values) {}
    void add(RenderGraph& graph, const ScanResources& r, const BlockSumScan& sums, const ScanSlab& slab,
             const float& iso) const;
};

} // namespace isoscope
