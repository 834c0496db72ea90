#include "extract/block/compact_blocks.h"

#include "core/context.h"
#include "graph/render_graph.h"

namespace isoscope {

namespace {

// 8-bit ranges pair blocks along x in a word; with an even count along x
// the pairs lie in block order, and an invocation reads a 32-block word's
// ranges as 64 consecutive bytes (on the H100 the faster way for them, the
// slower for 4-byte ranges: docs/BENCHMARKS.md).
bool listsByWords(std::array<uint32_t, 3> blockCounts, bool byteRanges)
{
    return byteRanges && blockCounts[0] % 2 == 0;
}

SpecValues withListValues(Context& context, SpecValues values, bool wordInvocations, uint32_t rowsFromListed,
                          bool resetMeshCounters)
{
    values.emplace_back("COMPACT_ROUNDS", CompactBlocksPass::kRounds);
    values.emplace_back("WORD_INVOCATIONS", wordInvocations ? 1u : 0u);
    values.emplace_back("MAX_GROUPS_X", context.info().maxComputeWorkGroupCount[0]);
    values.emplace_back("ROWS_FROM_LISTED", rowsFromListed);
    values.emplace_back("RESET_MESH_COUNTERS", resetMeshCounters ? 1u : 0u);
    return values;
}

} // namespace

CompactBlocksPass::CompactBlocksPass(Context& context, SpecValues values, std::array<uint32_t, 3> blockCounts,
                                     bool byteRanges, uint32_t rowsFromListed, bool resetMeshCounters)
    : BlockPass(context, "extract/block/compact_blocks",
                withListValues(context, std::move(values), listsByWords(blockCounts, byteRanges), rowsFromListed,
                               resetMeshCounters)),
      wordInvocations_(listsByWords(blockCounts, byteRanges))
{
}

void CompactBlocksPass::add(RenderGraph& graph, const BlockLayout& layout, const BlockParameters& parameters,
                            const float& iso, uint64_t blockCount, std::function<void()> recorded) const
{
    uint64_t perGroup = uint64_t(program_.localSize()[0]) * (wordInvocations_ ? 32 : kRounds);
    graph.addComputePass("compact_blocks", program_,
                         blockUses(layout, {kBlockActiveBlocks, kBlockListedWords, kBlockState, kBlockMeshCounters}),
                         [this, layout, &parameters, &iso, blockCount, perGroup, recorded](VkCommandBuffer cmd,
                                                                                             const RenderGraph& g) {
                             if (recorded)
                                 recorded();
                             bind(cmd, g, layout, parameters, iso);
                             program_.dispatchLine(cmd, ceilDiv(blockCount, perGroup));
                         });
}

} // namespace isoscope
