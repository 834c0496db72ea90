#include "extract/histopyramid/reduce_words.h"


namespace isoscope {

HistoPyramidReduceWordsPass::HistoPyramidReduceWordsPass(Context& context)
    : HistoPyramidPass(context, "extract/histopyramid/reduce_words", {})
{
}

void HistoPyramidReduceWordsPass::add(RenderGraph& graph, const std::string& name, const HistoPyramidResources& r,
                                      const HistoPyramidPush& push, uint32_t level, uint64_t invocations) const
{
    std::vector<ResourceUse> uses = {{r.volume, Use::StorageRead, 0}, {r.levels, Use::StorageRead, 1}, {r.pyramid, Use::StorageWrite, 2}};
    addReduce(graph, name, uses, push, level, invocations);
}

} // namespace isoscope
