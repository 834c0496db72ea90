#include "extract/dual/cells.h"

#include <cstddef>

#include "graph/render_graph.h"

namespace isoscope {

DualCellsPass::DualCellsPass(Context& context, bool colors)
    : DualPass(context, "extract/dual/cells", {{"COLORS", colors ? 1u : 0u}})
{
}

void DualCellsPass::add(RenderGraph& graph, const std::string& name, const DualResources& r, const DualPush& push,
                        const float& iso) const
{
    std::vector<ResourceUse> uses = {{r.volume, Use::StorageRead, 0},      {r.tableKeys, Use::StorageWrite, 1},
                                     {r.tableQuads, Use::StorageWrite, 2},  {r.vertices, Use::StorageWrite, 3},
                                     {r.meshCounters, Use::StorageWrite, 4}, {r.counters, Use::StorageWrite, 5},
                                     {r.vertexColors, Use::StorageWrite, 6}, {r.activeCells, Use::StorageRead, 7},
                                     {r.edgeList, Use::StorageWrite, 8},    {r.counters, Use::IndirectArgs}};
    // One invocation per listed cell: prepare_dispatch wrote the workgroups.
    graph.addComputePass(name, program_, uses, [this, uses, &push, &iso, r](VkCommandBuffer cmd, const RenderGraph& g) {
        bind(cmd, g, uses, push, iso);
        vkCmdDispatchIndirect(cmd, g.buffer(r.counters), offsetof(DualCounters, cellsDispatch));
    });
}

} // namespace isoscope
