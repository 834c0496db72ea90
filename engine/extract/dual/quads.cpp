#include "extract/dual/quads.h"

#include "graph/render_graph.h"

namespace isoscope {

DualQuadsPass::DualQuadsPass(Context& context, bool colors)
    : DualPass(context, "extract/dual/quads", {{"COLORS", colors ? 1u : 0u}})
{
}

void DualQuadsPass::add(RenderGraph& graph, const std::string& name, const DualResources& r,
                        const DualPush& push) const
{
    std::vector<ResourceUse> uses = {{r.tableKeys, Use::StorageRead, 0}, {r.tableQuads, Use::StorageRead, 1},
                                     {r.indices, Use::StorageWrite, 2},  {r.meshCounters, Use::StorageWrite, 3},
                                     {r.counters, Use::StorageWrite, 4}, {r.faceColors, Use::StorageWrite, 5}};
    graph.addComputePass(name, program_, uses, [this, uses, &push](VkCommandBuffer cmd, const RenderGraph& g) {
        bind(cmd, g, uses, push, push.iso);
        program_.dispatchLine(cmd, ceilDiv(push.tableBuckets, program_.localSize()[0]));
    });
}

} // namespace isoscope
