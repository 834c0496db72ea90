#pragma once
// One pass per pyramid level above the base pass's (shaders/extract/histopyramid/reduce.comp):
// each entry of level l holds the sums of its node's eight children at level
// l - 1, read as 16-byte vectors where `vectorReads` (after the columns base
// pass), else a word a child. Each level reads the one below it, so each is
// a pass of its own.
#include "extract/histopyramid/histopyramid_layout.h"

namespace isoscope {

class HistoPyramidReducePass : public HistoPyramidPass {
public:
    HistoPyramidReducePass(Context& context, bool vectorReads);
    void add(RenderGraph& graph, const std::string& name, const HistoPyramidResources& r, const HistoPyramidPush& push,
             uint32_t level, uint64_t invocations) const;
};

} // namespace isoscope
