#pragma once
// After the pyramid is built (shaders/extract/histopyramid/prepare.comp): the top
// node's sums become the mesh's counts and the indirect dispatches of the
// vertex and triangle passes, so nothing waits for the CPU.
#include "extract/histopyramid/histopyramid_layout.h"

namespace isoscope {

class HistoPyramidPreparePass : public HistoPyramidPass {
public:
    HistoPyramidPreparePass(Context& context, const SpecValues& values);
    void add(RenderGraph& graph, const std::string& name, const HistoPyramidResources& r, const HistoPyramidPush& push,
             const float& iso) const;
};

} // namespace isoscope
