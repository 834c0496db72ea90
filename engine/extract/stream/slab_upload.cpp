#include "extract/stream/slab_upload.h"

#include "core/error.h"
#include "graph/render_graph.h"
#include "volume/region_upload.h"

namespace isoscope {

void addSlabUploadPass(RenderGraph& graph, const GpuVolume& volume, const Buffer& staging, uint32_t planes)
{
    const Image& image = volume.image();
    if (planes == 0 || planes > image.extent.depth)
        fail("a slab upload of " + std::to_string(planes) + " planes into an image of " +
             std::to_string(image.extent.depth) + " (an engine bug)");
    GraphImage target{image.image, image.view, image.format, {image.extent.width, image.extent.height}};
    ResourceId imageId = graph.importImage("slab image", target, kVolumeAfterEarlierWork, kVolumeVisibleToLaterWork);
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

} // namespace isoscope
