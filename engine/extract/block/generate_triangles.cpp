#include "extract/block/generate_triangles.h"

#include <cstddef>

#include "extract/block/block_state.h"

namespace isoscope {

GenerateTrianglesPass::GenerateTrianglesPass(Context& context, SpecValues values)
    : BlockPass(context, "extract/block/generate_triangles", values)
{
}

void GenerateTrianglesPass::add(RenderGraph& graph, const BlockLayout& layout, const BlockParameters& parameters,
                                const float& iso) const
{
    addIndirect(graph, "generate_triangles", layout,
                {kBlockState, kBlockMeshVertices, kBlockMeshIndices, kBlockMeshCounters, kBlockVertexEdgeCodes},
                parameters, iso,
                offsetof(BlockState, dispatch));
}

} // namespace isoscope
