#include "extract/dual/cells.h"

#include "graph/render_graph.h"

namespace isoscope {

DualCellsPass::DualCellsPass(Context& context, bool colors)
    : DualPass(context, "extract/dual/cells", {{"COLORS", colors ? 1u : 0u}})
{
}

void DualCellsPass::add(RenderGraph& graph, const std::string& name, const DualResources& r, const DualPush& push,
                        const float& iso) const
{
    std::vector<ResourceUse> uses = {{r.volume, Use::StorageRead, 0},    {r.tableKeys, Use::StorageWrite, 1},
                                     {r.tableQuads, Use::StorageWrite, 2}, {r.vertices, Use::StorageWrite, 3},
                                     {r.meshCounters, Use::StorageWrite, 4}, {r.counters, Use::StorageWrite, 5},
                                     {r.vertexColors, Use::StorageWrite, 6}};
    // An invocation per run of kCellsPerInvocation cells along x (cells.comp's CELLS).
    uint64_t runs = ceilDiv(uint64_t(push.nx - 1), kCellsPerInvocation) * (push.ny - 1) * (push.nz - 1);
    graph.addComputePass(name, program_, uses, [this, uses, &push, &iso, runs](VkCommandBuffer cmd, const RenderGraph& g) {
        bind(cmd, g, uses, push, iso);
        program_.dispatchLine(cmd, ceilDiv(runs, program_.localSize()[0]));
    });
}

} // namespace isoscope
