#include "extract/histopyramid/base.h"

#include "graph/render_graph.h"

namespace isoscope {

HistoPyramidBasePass::HistoPyramidBasePass(Context& context, const SpecValues& values)
    : program_(context, loadShader("extract/histopyramid/base"), values)
{
    checkPushLayout(program_.name(), program_.pushMembers(), histoPyramidPushMembers());
}

void HistoPyramidBasePass::add(RenderGraph& graph, const std::string& name, const HistoPyramidResources& r,
                     const HistoPyramidPush& push, const float& iso, uint64_t invocations) const
{
    graph.addComputePass(name, program_,
        {{r.volume, Use::StorageRead, 0}, {r.levels, Use::StorageRead, 1}, {r.pyramid, Use::StorageWrite, 2},
         {r.caseTable, Use::StorageRead, 3}},
        [this, r, &push, &iso, invocations](VkCommandBuffer cmd, const RenderGraph& g) {
            HistoPyramidPush constants = push;
            constants.iso = iso;
            program_.bind(cmd, {g.storage(r.volume), g.storage(r.levels), g.storage(r.pyramid), g.storage(r.caseTable)},
                          &constants, sizeof constants);
            program_.dispatchLine(cmd, ceilDiv(invocations, program_.localSize()[0]));
        });
}

} // namespace isoscope
