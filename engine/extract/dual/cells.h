#pragma once
// Dual Marching Cubes, first pass (shaders/extract/dual/cells.comp): per
// cell, the MC polygons (asymptotic decider), one vertex per polygon on the
// trilinear isosurface, and the vertex numbers stored in the edge hash table.
#include "extract/dual/dual_layout.h"

namespace isoscope {

class DualCellsPass : public DualPass {
public:
    static constexpr uint64_t kCellsPerInvocation = 4;
    DualCellsPass(Context& context, bool colors);
    void add(RenderGraph& graph, const std::string& name, const DualResources& r, const DualPush& push,
             const float& iso) const;
};

} // namespace isoscope
