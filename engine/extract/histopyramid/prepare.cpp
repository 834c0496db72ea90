#include "extract/histopyramid/prepare.h"

#include "graph/render_graph.h"

namespace isoscope {

HistoPyramidPreparePass::HistoPyramidPreparePass(Context& context, const SpecValues& values)
    : program_(context, loadShader("extract/histopyramid/prepare"), values)
{
    checkPushLayout(program_.name(), program_.pushMembers(), histoPyramidPushMembers());
}

void HistoPyramidPreparePass::add(RenderGraph& graph, const std::string& name, const HistoPyramidResources& r,
                     const HistoPyramidPush& push, const float& iso) const
{
    graph.addComputePass(
        name, program_,
        {{r.volume, Use::StorageRead, 0}, {r.levels, Use::StorageRead, 1}, {r.pyramid, Use::StorageRead, 2},
         {r.counters, Use::StorageWrite, 3}, {r.dispatch, Use::StorageWrite, 4}},
        [this, r, &push, &iso](VkCommandBuffer cmd, const RenderGraph& g) {
            HistoPyramidPush constants = push;
            constants.iso = iso;
            program_.bind(cmd,
                          {g.storage(r.volume), g.storage(r.levels), g.storage(r.pyramid), g.storage(r.counters),
                           g.storage(r.dispatch)},
                          &constants, sizeof constants);
            program_.dispatch(cmd, 1);
        });
}

} // namespace isoscope
