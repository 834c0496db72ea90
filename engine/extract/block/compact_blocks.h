#pragma once
// Pass 2 of Parallel Marching Blocks (Liu et al. 2016, section 4.2),
// shaders/extract/block/compact_blocks.comp: the list of blocks whose value
// range straddles the isovalue, in block order, its length, (welded) the
// listed-word map that gives any block's slot, and, from its last
// workgroup, the indirect dispatches of the passes after it (count_vertices
// and the triangle pass it picks by the list's length, the other's empty)
// and the mesh's overflow flag when the list could not hold every active
// block. Its counters in the block state go back to zero when it is done,
// so the state needs no clear between frames (only zero at creation).
#include <functional>

#include "extract/block/block_layout.h"

namespace isoscope {

class Context;

class CompactBlocksPass : public BlockPass {
public:
    // Runs of a workgroup's size each workgroup lists, an invocation per block.
    static constexpr uint32_t kRounds = 8;

    // `ranges`: the block counts and byte-ranges flag of the value ranges
    // (an invocation per 32-block word where 8-bit ranges lie in block
    // order, else one per block). `rowsFromListed`: listed blocks from which
    // the row triangle pass is dispatched (0: always; 0xFFFFFFFF: never, the
    // cell pass instead). `resetMeshCounters`: the last workgroup also zeroes
    // the mesh's counts, draw arguments and overflow flag
    // (GpuExtractor::resetsMeshCounters).
    CompactBlocksPass(Context& context, SpecValues values, std::array<uint32_t, 3> blockCounts, bool byteRanges,
                      uint32_t rowsFromListed = 0xFFFFFFFFu, bool resetMeshCounters = false);
    // `recorded`, where given, runs each time the pass records (after the
    // passes added before it).
    void add(RenderGraph& graph, const BlockLayout& layout, const BlockParameters& parameters, const float& iso,
             uint64_t blockCount, std::function<void()> recorded = {}) const;

private:
    bool wordInvocations_;
};

} // namespace isoscope
