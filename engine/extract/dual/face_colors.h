#pragma once
// Dual Marching Cubes face colouring, second step (shaders/extract/dual/
// face_colors.comp): the 24 edge colours the quads pass gave the faces
// reduced to 5, one pass per colour from 5 to 23.
#include "extract/dual/dual_layout.h"

namespace isoscope {

class DualFaceColorsPass : public DualPass {
public:
    static constexpr uint32_t kEdgeColors = 24; // 8 cell colours times 3 axes
    static constexpr uint32_t kFaceColors = 5;

    explicit DualFaceColorsPass(Context& context);
    // The passes of edge colours kFaceColors .. kEdgeColors - 1, in that order.
    void add(RenderGraph& graph, const std::string& name, const DualResources& r, const DualPush& push) const;
};

} // namespace isoscope
