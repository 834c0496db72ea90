#include "extract/stream/slab_buffer_upload.h"

#include <utility>
#include <vector>

#include "core/context.h"
#include "core/error.h"
#include "graph/render_graph.h"

namespace isoscope {

void addSlabBufferUploadPass(RenderGraph& graph, const GpuVolume& volume, const SlabStaging& staging, uint32_t planes,
                             uint32_t extractionFamily, uint32_t firstPlane, SlabUploadPart part)
{
    std::array<uint32_t, 3> dims = volume.dims();
    uint64_t planeBytes = uint64_t(dims[0]) * dims[1] * scalarSize(volume.type());
    if (!volume.buffer() || planes != dims[2] || firstPlane >= planes)
        fail("a slab upload of " + std::to_string(planes) + " planes into a buffer of " + std::to_string(dims[2]) +
             " (an engine bug: the upload writes the whole buffer)");
    checkStagingWithin(staging, planes, part.first && part.last);
    // Old contents discarded; ALL_COMMANDS orders the copy after this queue's earlier work (one queue).
    ResourceState discarded{VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_NONE};
    ResourceState released{VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT,
                           VK_IMAGE_LAYOUT_UNDEFINED, extractionFamily};
    ResourceState written{VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT};
    ResourceId target = graph.importBuffer("slab samples", volume.buffer().buffer, part.first ? discarded : written,
                                           part.last ? released : written);
    std::vector<ResourceUse> uses;
    std::vector<std::pair<ResourceId, VkBufferCopy>> copies;
    for (const SlabUploadPiece& piece : importUploadPieces(graph, staging, firstPlane, uses))
        copies.emplace_back(piece.id, VkBufferCopy{piece.skipped * planeBytes, piece.firstPlane * planeBytes,
                                                   piece.planes * planeBytes});
    uses.push_back({target, Use::TransferDst});
    graph.addPass("slab upload", PassKind::Transfer, std::move(uses), [=](VkCommandBuffer cmd, const RenderGraph& g) {
        for (const auto& [id, copy] : copies)
            vkCmdCopyBuffer(cmd, g.buffer(id), g.buffer(target), 1, &copy);
    });
}

ResourceState slabBufferAfterUpload(const Context& context)
{
    return {VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
            context.transferQueueFamily()};
}

} // namespace isoscope
