#include "extract/dual/prepare_dispatch.h"

#include "core/context.h"
#include "graph/render_graph.h"

namespace isoscope {

DualPrepareDispatchPass::DualPrepareDispatchPass(Context& context, List list, uint32_t targetGroupSize)
    : DualPass(context, "extract/dual/prepare_dispatch",
               {{"LIST", uint32_t(list)},
                {"TARGET_GROUP_SIZE", targetGroupSize},
                {"MAX_GROUPS_X", context.info().maxComputeWorkGroupCount[0]}})
{
}

void DualPrepareDispatchPass::add(RenderGraph& graph, const std::string& name, const DualResources& r,
                                  const DualPush& push) const
{
    std::vector<ResourceUse> uses = {{r.meshCounters, Use::StorageWrite, 0}, {r.counters, Use::StorageWrite, 1}};
    graph.addComputePass(name, program_, uses, [this, uses, &push](VkCommandBuffer cmd, const RenderGraph& g) {
        bind(cmd, g, uses, push, push.iso);
        program_.dispatch(cmd, 1);
    });
}

} // namespace isoscope
