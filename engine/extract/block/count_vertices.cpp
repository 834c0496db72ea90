#include "extract/block/count_vertices.h"

#include <cstddef>

#include "extract/block/block_state.h"
#include "graph/render_graph.h"

namespace isoscope {

CountVerticesPass::CountVerticesPass(Context& context, SpecValues values)
    : BlockPass(context, "extract/block/count_vertices", values)
{
}

void CountVerticesPass::add(RenderGraph& graph, const BlockLayout& layout, const BlockParameters& parameters,
                            const float& iso) const
{
    std::vector<ResourceUse> uses = blockUses(layout, {kBlockSlotVertices, kBlockMeshCounters});
    uses.push_back({layout.resources[kBlockState], Use::IndirectArgs});
    graph.addComputePass("count_vertices", program_, std::move(uses),
                         [this, layout, &parameters, &iso](VkCommandBuffer cmd, const RenderGraph& g) {
                             bind(cmd, g, layout, parameters, iso);
                             vkCmdDispatchIndirect(cmd, g.buffer(layout.resources[kBlockState]),
                                                   offsetof(BlockState, countDispatch));
                         });
}

} // namespace isoscope
