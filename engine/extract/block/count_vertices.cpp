#include "extract/block/count_vertices.h"

#include <cstddef>

#include "extract/block/block_state.h"

namespace isoscope {

CountVerticesPass::CountVerticesPass(Context& context, SpecValues values)
    : BlockPass(context, "extract/block/count_vertices", values)
{
}

void CountVerticesPass::add(RenderGraph& graph, const BlockLayout& layout, const BlockParameters& parameters,
                            const float& iso) const
{
    addIndirect(graph, "count_vertices", layout, {kBlockSlotVertices, kBlockMeshCounters}, parameters, iso,
                offsetof(BlockState, countDispatch));
}

} // namespace isoscope
