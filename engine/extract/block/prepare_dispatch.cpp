#include "extract/block/prepare_dispatch.h"

#include "core/context.h"
#include "graph/render_graph.h"

namespace isoscope {

namespace {

SpecValues withDeviceLimit(Context& context, SpecValues values)
{
    values.emplace_back("MAX_GROUPS_X", context.info().maxComputeWorkGroupCount[0]);
    return values;
}

} // namespace

PrepareDispatchPass::PrepareDispatchPass(Context& context, SpecValues values)
    : BlockPass(context, "extract/block/prepare_dispatch", withDeviceLimit(context, std::move(values)))
{
}

void PrepareDispatchPass::add(RenderGraph& graph, const BlockLayout& layout, const BlockParameters& parameters) const
{
    graph.addComputePass("prepare_dispatch", program_, blockUses(layout, {kBlockState, kBlockMeshCounters}),
                         [this, layout, &parameters](VkCommandBuffer cmd, const RenderGraph& g) {
                             bindBlockLayout(cmd, g, program_, layout, parameters);
                             program_.dispatch(cmd, 1);
                         });
}

} // namespace isoscope
