#include "extract/histopyramid/histopyramid_layout.h"

#include <cstddef>

#include "extract/gpu_extractor.h"
#include "graph/render_graph.h"

namespace isoscope {

const std::vector<PushMember>& histoPyramidPushMembers()
{
    static const std::vector<PushMember> members = gridPushMembers<HistoPyramidPush>(
        {ISOSCOPE_PUSH_MEMBER(HistoPyramidPush, topLevel), ISOSCOPE_PUSH_MEMBER(HistoPyramidPush, level)});
    return members;
}

void HistoPyramidPass::addReduce(RenderGraph& graph, const std::string& name, const std::vector<ResourceUse>& uses,
                                 const HistoPyramidPush& push, uint32_t level, uint64_t invocations) const
{
    graph.addComputePass(name, program_, uses, [this, uses, &push, level, invocations](VkCommandBuffer cmd, const RenderGraph& g) {
        HistoPyramidPush constants = push;
        constants.level = level;
        bind(cmd, g, uses, constants, push.iso);
        program_.dispatchLine(cmd, ceilDiv(invocations, program_.localSize()[0]));
    });
}

} // namespace isoscope
