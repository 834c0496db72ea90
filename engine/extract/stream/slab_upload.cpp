#include "extract/stream/slab_upload.h"

#include <utility>
#include <vector>

#include "core/context.h"
#include "core/error.h"
#include "graph/render_graph.h"

namespace isoscope {

void addSlabUploadPass(RenderGraph& graph, const GpuVolume& volume, const SlabStaging& staging, uint32_t planes,
                       uint32_t extractionFamily, uint32_t firstPlane, uint32_t texelBytes, SlabUploadPart part)
{
    const Image& image = volume.image();
    if (planes != image.extent.depth || firstPlane >= planes)
        fail("a slab upload of " + std::to_string(planes) + " planes into an image of " +
             std::to_string(image.extent.depth) + " (an engine bug: the upload writes the whole image)");
    checkStagingWithin(staging, planes, part.first && part.last);
    GraphImage target{image.image, image.view, image.format, {image.extent.width, image.extent.height}};
    // Old contents discarded; ALL_COMMANDS orders the copy after this queue's earlier work (one queue).
    ResourceState discarded{VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_NONE, VK_IMAGE_LAYOUT_UNDEFINED};
    ResourceState released{VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT, VK_IMAGE_LAYOUT_GENERAL,
                           extractionFamily};
    // Between the parts: written by the part before, on this queue.
    ResourceState written{VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                          VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL};
    ResourceId imageId =
        graph.importImage("slab image", target, part.first ? discarded : written, part.last ? released : written);
    std::vector<ResourceUse> uses;
    std::vector<std::pair<ResourceId, VkBufferImageCopy>> copies;
    for (const SlabUploadPiece& piece : importUploadPieces(graph, staging, firstPlane, uses)) {
        VkBufferImageCopy box{};
        box.bufferOffset = uint64_t(piece.skipped) * image.extent.width * image.extent.height * texelBytes;
        box.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        box.imageOffset = {0, 0, int32_t(piece.firstPlane)};
        box.imageExtent = {image.extent.width, image.extent.height, piece.planes};
        copies.emplace_back(piece.id, box);
    }
    uses.push_back({imageId, Use::TransferDst});
    graph.addPass("slab upload", PassKind::Transfer, std::move(uses), [=](VkCommandBuffer cmd, const RenderGraph& g) {
        for (const auto& [id, box] : copies)
            vkCmdCopyBufferToImage(cmd, g.buffer(id), g.image(imageId).image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                                   &box);
    });
}

ResourceState slabImageAfterUpload(const Context& context)
{
    return {VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL,
            context.transferQueueFamily(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL};
}

} // namespace isoscope
