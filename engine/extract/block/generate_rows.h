#pragma once
// Pass 3 of Parallel Marching Blocks (Liu et al. 2016, section 4.3) with an
// invocation per x-row of a block's samples and several blocks a workgroup,
// shaders/extract/block/generate_rows.comp: the listed blocks' vertices and
// indexed triangles, as generate_triangles writes them, for large volumes
// (block_extractor.cpp says when). Dispatched indirectly, as prepare_dispatch
// sized it.
#include "extract/block/block_layout.h"

namespace isoscope {

class Context;

class GenerateRowsPass : public BlockPass {
public:
    GenerateRowsPass(Context& context, SpecValues values);
    void add(RenderGraph& graph, const BlockLayout& layout, const BlockParameters& parameters, const float& iso) const;
};

} // namespace isoscope
