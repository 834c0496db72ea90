#pragma once
// Dual Marching Cubes, classification (shaders/extract/dual/active_cells.comp):
// the cells with geometry of the blocks the block method listed, written
// densely to the active cell list that the cells pass reads one invocation
// per entry.
#include <array>

#include "extract/dual/dual_layout.h"

namespace isoscope {

class DualActiveCellsPass : public DualPass {
public:
    // `block`: the value-range block (at most 31 cells along x).
    DualActiveCellsPass(Context& context, std::array<uint32_t, 3> block);
    // Blocks one workgroup classifies: the count the block method's
    // compact_blocks divides the list by (COUNT_BLOCKS_PER_GROUP).
    uint32_t blocksPerGroup() const { return blocksPerGroup_; }
    // Dispatched from the block state's count dispatch (BlockState::countDispatch).
    void add(RenderGraph& graph, const std::string& name, const DualResources& r, const DualPush& push,
             const float& iso) const;

private:
    uint32_t blocksPerGroup_;
};

} // namespace isoscope
