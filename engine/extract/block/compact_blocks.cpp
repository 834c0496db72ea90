#include "extract/block/compact_blocks.h"

#include "graph/render_graph.h"

namespace isoscope {

namespace {

SpecValues withRounds(SpecValues values)
{
    values.emplace_back("COMPACT_ROUNDS", CompactBlocksPass::kRounds);
    return values;
}

} // namespace

CompactBlocksPass::CompactBlocksPass(Context& context, SpecValues values)
    : BlockPass(context, "extract/block/compact_blocks", withRounds(std::move(values)))
{
}

void CompactBlocksPass::add(RenderGraph& graph, const BlockLayout& layout, const BlockParameters& parameters,
                            const float& iso, uint64_t blockCount) const
{
    graph.addComputePass("compact_blocks", program_,
                         blockUses(layout, {kBlockActiveBlocks, kBlockListedWords, kBlockState}),
                         [this, layout, &parameters, &iso, blockCount](VkCommandBuffer cmd, const RenderGraph& g) {
                             bind(cmd, g, layout, parameters, iso);
                             program_.dispatchLine(cmd, ceilDiv(blockCount, program_.localSize()[0] * kRounds));
                         });
}

} // namespace isoscope
