#pragma once
// One pass per pyramid level above the runs base pass's, for volumes below
// histoPyramidBaseInColumns (shaders/extract/histopyramid/reduce_words.comp):
// each entry of level l holds the sums of its node's eight children at level
// l - 1, a word load a child; a pipeline of its own, since a switch in
// reduce.comp measured slower on the small volumes (docs/BENCHMARKS.md).
#include "extract/histopyramid/histopyramid_layout.h"

namespace isoscope {

class HistoPyramidReduceWordsPass : public HistoPyramidPass {
public:
    explicit HistoPyramidReduceWordsPass(Context& context);
    void add(RenderGraph& graph, const std::string& name, const HistoPyramidResources& r, const HistoPyramidPush& push,
             uint32_t level, uint64_t invocations) const;
};

} // namespace isoscope
