#pragma once
// Welded meshes, before the triangle pass (shaders/extract/block/count_vertices.comp):
// each listed block counts the crossed edges it owns, reserves their vertices
// with one atomic and stores its first vertex and edge-group sizes, so that
// its lower neighbours can number the vertices they borrow from it.
// Dispatched indirectly, as compact_blocks sized it.
#include "extract/block/block_layout.h"

namespace isoscope {

class Context;

class CountVerticesPass : public BlockPass {
public:
    CountVerticesPass(Context& context, SpecValues values);
    void add(RenderGraph& graph, const BlockLayout& layout, const BlockParameters& parameters, const float& iso) const;
};

} // namespace isoscope
