#include "extract/histopyramid/reduce_words.h"

#include "graph/render_graph.h"

namespace isoscope {

HistoPyramidReduceWordsPass::HistoPyramidReduceWordsPass(Context& context)
    : HistoPyramidPass(context, "extract/histopyramid/reduce_words", {})
{
}

void HistoPyramidReduceWordsPass::add(RenderGraph& graph, const std::string& name, const HistoPyramidResources& r,
                                      const HistoPyramidPush& push, uint32_t level, uint64_t invocations) const
{
    std::vector<ResourceUse> uses = {{r.volume, Use::StorageRead, 0}, {r.levels, Use::StorageRead, 1}, {r.pyramid, Use::StorageWrite, 2}};
    graph.addComputePass(name, program_, uses, [this, uses, &push, level, invocations](VkCommandBuffer cmd, const RenderGraph& g) {
                             HistoPyramidPush constants = push;
                             constants.level = level;
                             bind(cmd, g, uses, constants, push.iso);
                             program_.dispatchLine(cmd, ceilDiv(invocations, program_.localSize()[0]));
                         });
}

} // namespace isoscope
