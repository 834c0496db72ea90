#include "extract/block/generate_rows.h"

#include <cstddef>

#include "extract/block/block_state.h"
#include "extract/block/generate_triangles.h"
#include "graph/render_graph.h"

namespace isoscope {

namespace {

constexpr std::initializer_list<BlockBinding> kWrites = {kBlockState, kBlockMeshVertices, kBlockMeshIndices,
                                                         kBlockMeshCounters, kBlockVertexEdgeCodes};

} // namespace

GenerateRowsPass::GenerateRowsPass(Context& context, SpecValues values)
    : BlockPass(context, "extract/block/generate_rows", values)
{
}

void GenerateRowsPass::add(RenderGraph& graph, const BlockLayout& layout, const BlockParameters& parameters,
                           const float& iso) const
{
    addIndirect(graph, "generate_rows", layout, kWrites, parameters, iso, offsetof(BlockState, rowDispatch));
}

void GenerateRowsPass::addWithCellPass(RenderGraph& graph, const GenerateTrianglesPass& cells,
                                       const BlockLayout& layout, const BlockParameters& parameters,
                                       const float& iso) const
{
    std::vector<ResourceUse> uses = blockUses(layout, kWrites);
    uses.push_back({layout.resources[kBlockState], Use::IndirectArgs});
    graph.addComputePass("generate_rows_or_cells", {&program_, &cells.program()}, std::move(uses),
                         [this, &cells, layout, &parameters, &iso](VkCommandBuffer cmd, const RenderGraph& g) {
                             cells.recordIndirect(cmd, g, layout, parameters, iso, offsetof(BlockState, dispatch));
                             recordIndirect(cmd, g, layout, parameters, iso, offsetof(BlockState, rowDispatch));
                         });
}

} // namespace isoscope
