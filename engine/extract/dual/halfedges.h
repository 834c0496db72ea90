#pragma once
// Dual Marching Cubes halfedges (shaders/extract/dual/halfedges.comp and
// twins.comp): per quad corner a halfedge (origin, face, next) listed under
// its origin, then each halfedge's twin found in its target's list.
#include "extract/dual/dual_layout.h"

namespace isoscope {

class DualHalfedgesPass : public DualPass {
public:
    explicit DualHalfedgesPass(Context& context);
    void add(RenderGraph& graph, const std::string& name, const DualResources& r, const DualPush& push) const;
};

class DualTwinsPass : public DualPass {
public:
    explicit DualTwinsPass(Context& context);
    void add(RenderGraph& graph, const std::string& name, const DualResources& r, const DualPush& push) const;
};

} // namespace isoscope
