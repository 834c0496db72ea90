#include "extract/histopyramid/vertices.h"

#include "graph/render_graph.h"

namespace isoscope {

HistoPyramidVerticesPass::HistoPyramidVerticesPass(Context& context, const SpecValues& values)
    : program_(context, loadShader("extract/histopyramid/vertices"), values)
{
    checkPushLayout(program_.name(), program_.pushMembers(), histoPyramidPushMembers());
}

void HistoPyramidVerticesPass::add(RenderGraph& graph, const std::string& name, const HistoPyramidResources& r,
                     const HistoPyramidPush& push, const float& iso) const
{
    graph.addComputePass(
        name, program_,
        {{r.volume, Use::StorageRead, 0}, {r.levels, Use::StorageRead, 1}, {r.pyramid, Use::StorageRead, 2},
         {r.vertices, Use::StorageWrite, 3}, {r.counters, Use::StorageRead, 4}, {r.dispatch, Use::StorageRead, 5},
         {r.dispatch, Use::IndirectArgs}},
        [this, r, &push, &iso](VkCommandBuffer cmd, const RenderGraph& g) {
            HistoPyramidPush constants = push;
            constants.iso = iso;
            program_.bind(cmd,
                          {g.storage(r.volume), g.storage(r.levels), g.storage(r.pyramid), g.storage(r.vertices),
                           g.storage(r.counters), g.storage(r.dispatch)},
                          &constants, sizeof constants);
            vkCmdDispatchIndirect(cmd, g.buffer(r.dispatch), 0);
        });
}

} // namespace isoscope
