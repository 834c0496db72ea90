#pragma once
// Dual Marching Cubes face colouring, second step (shaders/extract/dual/
// face_colors.comp): the 24 edge colours the quads pass gave the faces
// reduced to 5, one pass per colour from 5 to 23.
#include "extract/dual/dual_layout.h"

namespace isoscope {

class DualFaceColorsPass : public DualPass {
public:
    explicit DualFaceColorsPass(Context& context);
    // The pass of edge colour `colorClass`.
    void add(RenderGraph& graph, const std::string& name, const DualResources& r, const DualPush& push,
             uint32_t colorClass) const;
};

} // namespace isoscope
