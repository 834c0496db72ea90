#include "extract/block/generate_triangles.h"

#include <cstddef>

#include "extract/block/block_state.h"
#include "graph/render_graph.h"

namespace isoscope {

GenerateTrianglesPass::GenerateTrianglesPass(Context& context, SpecValues values)
    : BlockPass(context, "extract/block/generate_triangles", values)
{
}

void GenerateTrianglesPass::add(RenderGraph& graph, const BlockLayout& layout, const BlockParameters& parameters,
                                const float& iso) const
{
    std::vector<ResourceUse> uses =
        blockUses(layout, {kBlockState, kBlockMeshVertices, kBlockMeshIndices, kBlockMeshCounters});
    uses.push_back({layout.resources[kBlockState], Use::IndirectArgs});
    graph.addComputePass("generate_triangles", program_, std::move(uses),
                         [this, layout, &parameters, &iso](VkCommandBuffer cmd, const RenderGraph& g) {
                             bind(cmd, g, layout, parameters, iso);
                             vkCmdDispatchIndirect(cmd, g.buffer(layout.resources[kBlockState]),
                                                   offsetof(BlockState, dispatch));
                         });
}

} // namespace isoscope
