#pragma once
// The HistoPyramid's lowest two levels for small volumes
// (shaders/extract/histopyramid/base_runs.comp; histoPyramidBaseInColumns):
// one invocation per run of eight x-adjacent level-1 nodes (16x2x2 points)
// classifies their points and writes their level-0 bytes and the nodes'
// level-1 counts. `invocations`: histoPyramidBaseRuns.
#include "extract/histopyramid/histopyramid_layout.h"

namespace isoscope {

class HistoPyramidBaseRunsPass : public HistoPyramidPass {
public:
    explicit HistoPyramidBaseRunsPass(Context& context);
    void add(RenderGraph& graph, const std::string& name, const HistoPyramidResources& r, const HistoPyramidPush& push,
             const float& iso, uint64_t invocations) const;
};

} // namespace isoscope
