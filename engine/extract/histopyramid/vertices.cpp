#include "extract/histopyramid/vertices.h"

#include "graph/render_graph.h"

namespace isoscope {

HistoPyramidVerticesPass::HistoPyramidVerticesPass(Context& context, const SpecValues& values)
    : HistoPyramidPass(context, "extract/histopyramid/vertices", values)
{
}

void HistoPyramidVerticesPass::add(RenderGraph& graph, const std::string& name, const HistoPyramidResources& r,
                     const HistoPyramidPush& push, const float& iso) const
{
    std::vector<ResourceUse> uses = {{r.volume, Use::StorageRead, 0},    {r.levels, Use::StorageRead, 1},  {r.pyramid, Use::StorageRead, 2},
                                     {r.vertices, Use::StorageWrite, 3}, {r.counters, Use::StorageRead, 4}, {r.dispatch, Use::StorageRead, 5},
                                     {r.pyramid, Use::StorageRead, 6},   {r.dispatch, Use::IndirectArgs}}; // the pyramid again as vectors
    graph.addComputePass(name, program_, uses, [this, uses, &push, &iso, r](VkCommandBuffer cmd, const RenderGraph& g) {
                             bind(cmd, g, uses, push, iso);
                             vkCmdDispatchIndirect(cmd, g.buffer(r.dispatch), 0);
                         });
}

} // namespace isoscope
