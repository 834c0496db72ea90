#pragma once
// Dual Marching Cubes, second pass (shaders/extract/dual/quads.comp): the
// complete quads of the buckets the cells pass took into the index buffer.
#include "extract/dual/dual_layout.h"

namespace isoscope {

class DualQuadsPass : public DualPass {
public:
    DualQuadsPass(Context& context, bool colors);
    uint32_t groupSize() const { return program_.localSize()[0]; }
    // Dispatched from the counters (DualCounters::quadsDispatch).
    void add(RenderGraph& graph, const std::string& name, const DualResources& r, const DualPush& push) const;
};

} // namespace isoscope
