#include "extract/histopyramid/prepare.h"

#include "graph/render_graph.h"

namespace isoscope {

HistoPyramidPreparePass::HistoPyramidPreparePass(Context& context, const SpecValues& values)
    : HistoPyramidPass(context, "extract/histopyramid/prepare", values)
{
}

void HistoPyramidPreparePass::add(RenderGraph& graph, const std::string& name, const HistoPyramidResources& r,
                     const HistoPyramidPush& push, const float& iso) const
{
    std::vector<ResourceUse> uses = {{r.volume, Use::StorageRead, 0}, {r.levels, Use::StorageRead, 1}, {r.pyramid, Use::StorageRead, 2},
                                     {r.counters, Use::StorageWrite, 3}, {r.dispatch, Use::StorageWrite, 4}};
    graph.addComputePass(name, program_, uses, [this, uses, &push, &iso](VkCommandBuffer cmd, const RenderGraph& g) {
                             bind(cmd, g, uses, push, iso);
                             program_.dispatch(cmd, 1);
                         });
}

} // namespace isoscope
