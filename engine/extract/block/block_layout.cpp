#include "extract/block/block_layout.h"

#include <algorithm>
#include <cstddef>

#include "graph/render_graph.h"

namespace isoscope {

std::vector<ResourceUse> blockUses(const BlockLayout& layout, std::initializer_list<BlockBinding> writes)
{
    std::vector<ResourceUse> uses;
    for (int32_t b = 0; b < kBlockBindingCount; ++b) {
        bool written = std::find(writes.begin(), writes.end(), BlockBinding(b)) != writes.end();
        Use use = b == kBlockVolume ? Use::Sampled : written ? Use::StorageWrite : Use::StorageRead;
        uses.push_back({layout.resources[b], use, b});
    }
    return uses;
}

void bindBlockLayout(VkCommandBuffer cmd, const RenderGraph& graph, const ComputeProgram& program,
                     const BlockLayout& layout, const BlockParameters& parameters,
                     std::optional<DescriptorInfo> volumeWords)
{
    auto storage = [&](BlockBinding b) { return graph.storage(layout.resources[b]); };
    program.bind(cmd,
                 {DescriptorInfo(layout.sampler, graph.image(layout.resources[kBlockVolume]).view,
                                 VK_IMAGE_LAYOUT_GENERAL),
                  storage(kBlockRanges), storage(kBlockActiveBlocks), storage(kBlockListedWords),
                  storage(kBlockState), storage(kBlockSlotVertices), storage(kBlockCaseTable),
                  storage(kBlockMeshVertices), storage(kBlockMeshIndices), storage(kBlockMeshCounters),
                  volumeWords ? *volumeWords : storage(kBlockVolumeWords), storage(kBlockVertexEdgeCodes)},
                 &parameters, sizeof parameters);
}

void BlockPass::addIndirect(RenderGraph& graph, const char* name, const BlockLayout& layout,
                            std::initializer_list<BlockBinding> writes, const BlockParameters& parameters,
                            const float& iso, VkDeviceSize argsOffset) const
{
    std::vector<ResourceUse> uses = blockUses(layout, writes);
    uses.push_back({layout.resources[kBlockState], Use::IndirectArgs});
    graph.addComputePass(name, program_, std::move(uses),
                         [this, layout, &parameters, &iso, argsOffset](VkCommandBuffer cmd, const RenderGraph& g) {
                             recordIndirect(cmd, g, layout, parameters, iso, argsOffset);
                         });
}

void BlockPass::recordIndirect(VkCommandBuffer cmd, const RenderGraph& graph, const BlockLayout& layout,
                               const BlockParameters& parameters, float iso, VkDeviceSize argsOffset) const
{
    bind(cmd, graph, layout, parameters, iso);
    vkCmdDispatchIndirect(cmd, graph.buffer(layout.resources[kBlockState]), argsOffset);
}

const std::vector<PushMember>& blockParameterMembers()
{
    static const std::vector<PushMember> members = {
        ISOSCOPE_PUSH_MEMBER(BlockParameters, dims),          ISOSCOPE_PUSH_MEMBER(BlockParameters, iso),
        ISOSCOPE_PUSH_MEMBER(BlockParameters, blockCounts),   ISOSCOPE_PUSH_MEMBER(BlockParameters, valueScale),
        ISOSCOPE_PUSH_MEMBER(BlockParameters, origin),        ISOSCOPE_PUSH_MEMBER(BlockParameters, roundValues),
        ISOSCOPE_PUSH_MEMBER(BlockParameters, spacing),       ISOSCOPE_PUSH_MEMBER(BlockParameters, activeCapacity),
        ISOSCOPE_PUSH_MEMBER(BlockParameters, firstBlockLayer), ISOSCOPE_PUSH_MEMBER(BlockParameters, rowWords),
        ISOSCOPE_PUSH_MEMBER(BlockParameters, layerOffset),   ISOSCOPE_PUSH_MEMBER(BlockParameters, layerCount),
        ISOSCOPE_PUSH_MEMBER(BlockParameters, rangeFirstBlock), ISOSCOPE_PUSH_MEMBER(BlockParameters, rangeEndBlock),
        ISOSCOPE_PUSH_MEMBER(BlockParameters, firstPlane),    ISOSCOPE_PUSH_MEMBER(BlockParameters, imagePlanesBelow),
        ISOSCOPE_PUSH_MEMBER(BlockParameters, volumePlanes),
    };
    return members;
}

} // namespace isoscope
