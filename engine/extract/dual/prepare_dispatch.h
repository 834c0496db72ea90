#pragma once
// Dual Marching Cubes, after the classification (shaders/extract/dual/prepare_dispatch.comp):
// the active cell list's length into the indirect dispatch of the cells and
// quads passes, and the mesh's overflow flag where the list was too short.
#include "extract/dual/dual_layout.h"

namespace isoscope {

class DualPrepareDispatchPass : public DualPass {
public:
    // `targetGroupSize`: the workgroup size of the passes dispatched.
    DualPrepareDispatchPass(Context& context, uint32_t targetGroupSize);
    void add(RenderGraph& graph, const std::string& name, const DualResources& r, const DualPush& push) const;
};

} // namespace isoscope
