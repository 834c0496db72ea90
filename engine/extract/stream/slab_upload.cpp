#include "extract/stream/slab_upload.h"

#include "core/context.h"
#include "core/error.h"
#include "graph/render_graph.h"

namespace isoscope {

void addSlabUploadPass(RenderGraph& graph, const GpuVolume& volume, const Buffer& staging, uint32_t planes,
                       uint32_t extractionFamily)
{
    const Image& image = volume.image();
    if (planes != image.extent.depth)
        fail("a slab upload of " + std::to_string(planes) + " planes into an image of " +
             std::to_string(image.extent.depth) + " (an engine bug: the upload writes the whole image)");
    GraphImage target{image.image, image.view, image.format, {image.extent.width, image.extent.height}};
    // Old contents discarded; ALL_COMMANDS orders the copy after this queue's earlier work (one queue).
    ResourceState discarded{VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_NONE, VK_IMAGE_LAYOUT_UNDEFINED};
    ResourceState released{VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT, VK_IMAGE_LAYOUT_GENERAL,
                           extractionFamily};
    ResourceId imageId = graph.importImage("slab image", target, discarded, released);
    ResourceId stagingId = graph.importBuffer("slab staging", staging.buffer);
    VkBufferImageCopy box{};
    box.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    box.imageExtent = {image.extent.width, image.extent.height, planes};
    graph.addPass("slab upload", PassKind::Transfer, {{stagingId, Use::TransferSrc}, {imageId, Use::TransferDst}},
                  [=](VkCommandBuffer cmd, const RenderGraph& g) {
                      vkCmdCopyBufferToImage(cmd, g.buffer(stagingId), g.image(imageId).image,
                                             VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &box);
                  });
}

ResourceState slabImageAfterUpload(const Context& context)
{
    return {VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL,
            context.transferQueueFamily(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL};
}

} // namespace isoscope
