#include "extract/dual/quads.h"

#include <cstddef>

#include "graph/render_graph.h"

namespace isoscope {

DualQuadsPass::DualQuadsPass(Context& context, bool colors)
    : DualPass(context, "extract/dual/quads", {{"COLORS", colors ? 1u : 0u}})
{
}

void DualQuadsPass::add(RenderGraph& graph, const std::string& name, const DualResources& r,
                        const DualPush& push, const float& iso) const
{
    std::vector<ResourceUse> uses = {{r.volume, Use::StorageRead, 0},       {r.tableKeys, Use::StorageRead, 1},
                                     {r.tableQuads, Use::StorageRead, 2},   {r.indices, Use::StorageWrite, 3},
                                     {r.meshCounters, Use::StorageWrite, 4}, {r.counters, Use::StorageWrite, 5},
                                     {r.faceColors, Use::StorageWrite, 6},  {r.activeCells, Use::StorageRead, 7},
                                     {r.counters, Use::IndirectArgs}};
    // One invocation per listed cell, as the cells pass (its workgroup size).
    graph.addComputePass(name, program_, uses, [this, uses, &push, &iso, r](VkCommandBuffer cmd, const RenderGraph& g) {
        bind(cmd, g, uses, push, iso);
        vkCmdDispatchIndirect(cmd, g.buffer(r.counters), offsetof(DualCounters, cellsDispatch));
    });
}

} // namespace isoscope
