#pragma once
// The HistoPyramid's lowest two levels (shaders/extract/histopyramid/base.comp): one
// invocation per run of eight x-adjacent level-1 nodes (16x2x2 points)
// classifies their points and writes their level-0 bytes and the nodes'
// level-1 counts. `invocations`: histoPyramidBaseRuns.
#include "extract/histopyramid/histopyramid_layout.h"

namespace isoscope {

class HistoPyramidBasePass : public HistoPyramidPass {
public:
    explicit HistoPyramidBasePass(Context& context);
    void add(RenderGraph& graph, const std::string& name, const HistoPyramidResources& r, const HistoPyramidPush& push,
             const float& iso, uint64_t invocations) const;
};

} // namespace isoscope
