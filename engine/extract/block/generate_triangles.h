#pragma once
// Pass 3 of Parallel Marching Blocks (Liu et al. 2016, section 4.3),
// shaders/extract/block/generate_triangles.comp: one workgroup per listed
// block writes its vertices and indexed triangles into the mesh. Dispatched
// indirectly, as compact_blocks sized it.
#include "extract/block/block_layout.h"

namespace isoscope {

class Context;

class GenerateTrianglesPass : public BlockPass {
public:
    GenerateTrianglesPass(Context& context, SpecValues values);
    void add(RenderGraph& graph, const BlockLayout& layout, const BlockParameters& parameters, const float& iso) const;
};

} // namespace isoscope
