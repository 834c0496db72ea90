#include "extract/histopyramid/base_runs.h"

#include "graph/render_graph.h"

namespace isoscope {

HistoPyramidBaseRunsPass::HistoPyramidBaseRunsPass(Context& context)
    : HistoPyramidPass(context, "extract/histopyramid/base_runs", {})
{
}

void HistoPyramidBaseRunsPass::add(RenderGraph& graph, const std::string& name, const HistoPyramidResources& r,
                     const HistoPyramidPush& push, const float& iso, uint64_t invocations) const
{
    std::vector<ResourceUse> uses = {{r.volume, Use::StorageRead, 0}, {r.levels, Use::StorageRead, 1}, {r.pyramid, Use::StorageWrite, 2},
                                     {r.caseTable, Use::StorageRead, 3},
                                     // The samples again as 16-byte and 8-byte vectors (line_inside_bits.glsl).
                                     {r.volume, Use::StorageRead, 4}, {r.volume, Use::StorageRead, 5}};
    graph.addComputePass(name, program_, uses, [this, uses, &push, &iso, invocations](VkCommandBuffer cmd, const RenderGraph& g) {
                             bind(cmd, g, uses, push, iso);
                             program_.dispatchLine(cmd, ceilDiv(invocations, program_.localSize()[0]));
                         });
}

} // namespace isoscope
