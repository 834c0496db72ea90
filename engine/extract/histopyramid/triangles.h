#pragma once
// One invocation per triangle (shaders/extract/histopyramid/triangles.comp): a
// traversal from the top finds its cell; welded, its corners are the owners'
// ranks in the pyramid, otherwise it writes its own three vertices.
// Dispatched indirectly, as prepare sized it.
#include "extract/histopyramid/histopyramid_layout.h"

namespace isoscope {

class HistoPyramidTrianglesPass : public HistoPyramidPass {
public:
    HistoPyramidTrianglesPass(Context& context, bool weld, const SpecValues& values);
    void add(RenderGraph& graph, const std::string& name, const HistoPyramidResources& r, const HistoPyramidPush& push,
             const float& iso) const;

private:
    bool weld_;
};

} // namespace isoscope
