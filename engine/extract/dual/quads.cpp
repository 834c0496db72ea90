#include "extract/dual/quads.h"

#include <cstddef>

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
                                     {r.counters, Use::StorageWrite, 4}, {r.faceColors, Use::StorageWrite, 5},
                                     {r.edgeList, Use::StorageRead, 6},  {r.counters, Use::IndirectArgs}};
    // One invocation per bucket taken: prepare_dispatch wrote the workgroups.
    graph.addComputePass(name, program_, uses, [this, uses, &push, r](VkCommandBuffer cmd, const RenderGraph& g) {
        bind(cmd, g, uses, push, push.iso);
        vkCmdDispatchIndirect(cmd, g.buffer(r.counters), offsetof(DualCounters, quadsDispatch));
    });
}

} // namespace isoscope
