#include "extract/histopyramid/reduce.h"

#include "graph/render_graph.h"

namespace isoscope {

HistoPyramidReducePass::HistoPyramidReducePass(Context& context)
    : program_(context, loadShader("extract/histopyramid/reduce"))
{
    checkPushLayout(program_.name(), program_.pushMembers(), histoPyramidPushMembers());
}

void HistoPyramidReducePass::add(RenderGraph& graph, const std::string& name, const HistoPyramidResources& r,
                                 const HistoPyramidPush& push, uint32_t level, uint64_t invocations) const
{
    graph.addComputePass(
        name, program_,
        {{r.volume, Use::StorageRead, 0}, {r.levels, Use::StorageRead, 1}, {r.pyramid, Use::StorageWrite, 2}},
        [this, r, &push, level, invocations](VkCommandBuffer cmd, const RenderGraph& g) {
            HistoPyramidPush constants = push;
            constants.level = level;
            program_.bind(cmd, {g.storage(r.volume), g.storage(r.levels), g.storage(r.pyramid)}, &constants,
                          sizeof constants);
            program_.dispatchLine(cmd, ceilDiv(invocations, program_.localSize()[0]));
        });
}

} // namespace isoscope
