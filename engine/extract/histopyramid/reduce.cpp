#include "extract/histopyramid/reduce.h"


namespace isoscope {

HistoPyramidReducePass::HistoPyramidReducePass(Context& context) : HistoPyramidPass(context, "extract/histopyramid/reduce", {}) {}

void HistoPyramidReducePass::add(RenderGraph& graph, const std::string& name, const HistoPyramidResources& r,
                     const HistoPyramidPush& push, uint32_t level, uint64_t invocations) const
{
    std::vector<ResourceUse> uses = {{r.volume, Use::StorageRead, 0}, {r.levels, Use::StorageRead, 1}, {r.pyramid, Use::StorageWrite, 2},
                                     {r.pyramid, Use::StorageRead, 3}}; // the level below as vectors
    addReduce(graph, name, uses, push, level, invocations);
}

} // namespace isoscope
