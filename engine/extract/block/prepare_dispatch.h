#pragma once
// Between listing and generating (shaders/extract/block/prepare_dispatch.comp):
// turns the list's length into the indirect dispatches of count_vertices and
// of the triangle pass it picks by that length (generate_triangles or
// generate_rows; the other's is empty), and raises the mesh's overflow flag
// when the list could not hold every active block.
#include "extract/block/block_layout.h"

namespace isoscope {

class Context;

class PrepareDispatchPass : public BlockPass {
public:
    PrepareDispatchPass(Context& context, SpecValues values);
    void add(RenderGraph& graph, const BlockLayout& layout, const BlockParameters& parameters) const;
};

} // namespace isoscope
