#pragma once
// Pass 2 of Parallel Marching Blocks (Liu et al. 2016, section 4.2),
// shaders/extract/block/compact_blocks.comp: the list of blocks whose value
// range straddles the isovalue, in block order, its length, and (welded) the
// listed-word map that gives any block's slot.
#include "extract/block/block_layout.h"

namespace isoscope {

class Context;

class CompactBlocksPass : public BlockPass {
public:
    // Runs of a workgroup's size each workgroup lists.
    static constexpr uint32_t kRounds = 8;

    CompactBlocksPass(Context& context, SpecValues values);
    void add(RenderGraph& graph, const BlockLayout& layout, const BlockParameters& parameters, const float& iso,
             uint64_t blockCount) const;
};

} // namespace isoscope
