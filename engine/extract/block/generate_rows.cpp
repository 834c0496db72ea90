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
    // The same name as the cell pass's in timings: one step of the method.
    addIndirect(graph, "generate_triangles", layout,
                {kBlockState, kBlockMeshVertices, kBlockMeshIndices, kBlockMeshCounters, kBlockVertexEdgeCodes},
                parameters, iso, offsetof(BlockState, countDispatch));
}

} // namespace isoscope
