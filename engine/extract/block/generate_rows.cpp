#include "extract/block/generate_rows.h"

#include <cstddef>

#include "extract/block/block_state.h"

namespace isoscope {

GenerateRowsPass::GenerateRowsPass(Context& context, SpecValues values)
    : BlockPass(context, "extract/block/generate_rows", values)
{
}

void GenerateRowsPass::add(RenderGraph& graph, const BlockLayout& layout, const BlockParameters& parameters,
                           const float& iso) const
{
    // Its own name in timings: both triangle passes are recorded where
    // prepare_dispatch picks one by the list's length.
    addIndirect(graph, "generate_rows", layout,
                {kBlockState, kBlockMeshVertices, kBlockMeshIndices, kBlockMeshCounters, kBlockVertexEdgeCodes},
                parameters, iso, offsetof(BlockState, rowDispatch));
}

} // namespace isoscope
