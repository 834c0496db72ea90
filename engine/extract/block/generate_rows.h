#pragma once
// Pass 3 of Parallel Marching Blocks (Liu et al. 2016, section 4.3) with an
// invocation per x-row of a block's samples and several blocks a workgroup,
// shaders/extract/block/generate_rows.comp: the listed blocks' vertices and
// indexed triangles, as generate_triangles writes them, for long lists
// (block_extractor.cpp says when). Dispatched indirectly, as compact_blocks
// sized it.
#include "extract/block/block_layout.h"

namespace isoscope {

class Context;
class GenerateTrianglesPass;

class GenerateRowsPass : public BlockPass {
public:
    GenerateRowsPass(Context& context, SpecValues values);
    void add(RenderGraph& graph, const BlockLayout& layout, const BlockParameters& parameters, const float& iso) const;
    // One graph pass that dispatches this pass and the cell pass, each from
    // its own arguments: compact_blocks gives one of them none, by the
    // list's length. In one pass, the empty dispatch costs no barrier.
    void addWithCellPass(RenderGraph& graph, const GenerateTrianglesPass& cells, const BlockLayout& layout,
                         const BlockParameters& parameters, const float& iso) const;
};

} // namespace isoscope
