#pragma once
// Welded meshes (shaders/extract/histopyramid/vertices.comp): one invocation per
// vertex finds its point by one traversal from the top and writes the vertex
// on its crossed edge. Dispatched indirectly, as prepare sized it.
#include "extract/histopyramid/histopyramid_layout.h"

namespace isoscope {

class HistoPyramidVerticesPass : public HistoPyramidPass {
public:
    HistoPyramidVerticesPass(Context& context, const SpecValues& values);
    void add(RenderGraph& graph, const std::string& name, const HistoPyramidResources& r, const HistoPyramidPush& push,
             const float& iso) const;
};

} // namespace isoscope
