#pragma once
// Dual Marching Cubes, between passes (shaders/extract/dual/prepare_dispatch.comp):
// a list's length into the indirect dispatch of the pass that reads it, and
// the mesh's overflow flag where the list was too short.
#include "extract/dual/dual_layout.h"

namespace isoscope {

class DualPrepareDispatchPass : public DualPass {
public:
    enum class List : uint32_t { ActiveCells = 0, StoredEdges = 1 };
    // `targetGroupSize`: the workgroup size of the pass dispatched.
    DualPrepareDispatchPass(Context& context, List list, uint32_t targetGroupSize);
    void add(RenderGraph& graph, const std::string& name, const DualResources& r, const DualPush& push) const;
};

} // namespace isoscope
