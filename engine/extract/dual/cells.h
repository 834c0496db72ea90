#pragma once
// Dual Marching Cubes, first pass (shaders/extract/dual/cells.comp): per
// listed cell with geometry, the MC polygons (asymptotic decider), one vertex
// per polygon on the trilinear isosurface, and the vertex numbers stored in
// the edge hash table (the buckets taken listed for the quads pass).
#include "extract/dual/dual_layout.h"

namespace isoscope {

class DualCellsPass : public DualPass {
public:
    DualCellsPass(Context& context, bool colors);
    uint32_t groupSize() const { return program_.localSize()[0]; }
    // Dispatched from the counters (DualCounters::cellsDispatch).
    void add(RenderGraph& graph, const std::string& name, const DualResources& r, const DualPush& push,
             const float& iso) const;
};

} // namespace isoscope
