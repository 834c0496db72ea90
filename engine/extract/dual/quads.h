#pragma once
// Dual Marching Cubes, second pass (shaders/extract/dual/quads.comp): per
// listed cell, the complete quads of the interior edges it owns into the
// index buffer.
#include "extract/dual/dual_layout.h"

namespace isoscope {

class DualQuadsPass : public DualPass {
public:
    DualQuadsPass(Context& context, bool colors);
    uint32_t groupSize() const { return program_.localSize()[0]; }
    // Dispatched from the counters as the cells pass (DualCounters::cellsDispatch).
    void add(RenderGraph& graph, const std::string& name, const DualResources& r, const DualPush& push,
             const float& iso) const;
};

} // namespace isoscope
