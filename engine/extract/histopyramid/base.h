#pragma once
// The HistoPyramid's lowest two levels (shaders/extract/histopyramid/base.comp): one
// invocation per level-1 entry classifies its node's 2x2x2 points and writes
// their level-0 bytes and the node's level-1 counts.
#include "extract/histopyramid/histopyramid_layout.h"

namespace isoscope {

class HistoPyramidBasePass : public HistoPyramidPass {
public:
    explicit HistoPyramidBasePass(Context& context);
    void add(RenderGraph& graph, const std::string& name, const HistoPyramidResources& r, const HistoPyramidPush& push,
             const float& iso, uint64_t invocations) const;
};

} // namespace isoscope
