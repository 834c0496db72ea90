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
    : program_(context, loadShader("extract/block/compact_blocks"), withRounds(std::move(values)))
{
    checkPushLayout(program_.name(), program_.pushMembers(), blockParameterMembers());
}

void CompactBlocksPass::add(RenderGraph& graph, const BlockLayout& layout, const BlockParameters& parameters,
                            const float& iso, uint64_t blockCount) const
{
    graph.addComputePass("compact_blocks", program_,
                         blockUses(layout, {kBlockActiveBlocks, kBlockListedWords, kBlockState}),
                         [this, layout, &parameters, &iso, blockCount](VkCommandBuffer cmd, const RenderGraph& g) {
                             BlockParameters push = parameters;
                             push.iso = iso;
                             bindBlockLayout(cmd, g, program_, layout, push);
                             program_.dispatchLine(cmd, ceilDiv(blockCount, program_.localSize()[0] * kRounds));
                         });
}

} // namespace isoscope
