#pragma once
// One pass per pyramid level above the columns base pass's (shaders/extract/histopyramid/reduce.comp):
// each entry of level l holds the sums of its node's eight children at level
// l - 1, read as 16-byte vectors. Each level reads the one below it, so each
// is a pass of its own. After the runs base pass: reduce_words.h.
#include "extract/histopyramid/histopyramid_layout.h"

namespace isoscope {

class HistoPyramidReducePass : public HistoPyramidPass {
public:
    explicit HistoPyramidReducePass(Context& context);
    void add(RenderGraph& graph, const std::string& name, const HistoPyramidResources& r, const HistoPyramidPush& push,
             uint32_t level, uint64_t invocations) const;
};

} // namespace isoscope
