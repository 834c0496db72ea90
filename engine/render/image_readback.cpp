#include "render/image_readback.h"

#include <cstring>

#include "core/context.h"
#include "core/error.h"

namespace isoscope {

Buffer createReadbackBuffer(Context& context, VkExtent2D extent)
{
    return context.allocator().createBuffer(VkDeviceSize(extent.width) * extent.height * 4,
                                            VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUsage::Readback,
                                            "image read-back buffer");
}

Buffer createBufferReadback(Context& context, VkDeviceSize bytes, const std::string& what)
{
    return context.allocator().createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUsage::Readback,
                                            what + " read-back");
}

void addBufferReadback(RenderGraph& graph, ResourceId source, const Buffer& readback, const std::string& what)
{
    ResourceId target = graph.importBuffer(what, readback.buffer, {},
                                           ResourceState{VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT});
    VkDeviceSize bytes = readback.size;
    graph.addPass("read back " + what, PassKind::Transfer, {{source, Use::TransferSrc}, {target, Use::TransferDst}},
                  [source, target, bytes](VkCommandBuffer cmd, const RenderGraph& g) {
                      VkBufferCopy region{0, 0, bytes};
                      vkCmdCopyBuffer(cmd, g.buffer(source), g.buffer(target), 1, &region);
                  });
}

void addReadbackPass(RenderGraph& graph, ResourceId color, const Buffer& readback)
{
    const std::string name = graph.desc().resources.at(color).name;
    ResourceId target = graph.importBuffer(name + " read-back", readback.buffer, {},
                                           ResourceState{VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT});
    VkDeviceSize bytes = readback.size;
    graph.addPass("read back " + name, PassKind::Transfer, {{color, Use::TransferSrc}, {target, Use::TransferDst}},
                  [=](VkCommandBuffer cmd, const RenderGraph& g) {
                      const GraphImage& image = g.image(color);
                      if (VkDeviceSize(image.extent.width) * image.extent.height * 4 > bytes)
                          fail("read-back buffer of " + std::to_string(bytes) + " bytes is too small for a " +
                               std::to_string(image.extent.width) + "x" + std::to_string(image.extent.height) +
                               " image (engine bug)");
                      VkBufferImageCopy region{};
                      // 4 bytes a pixel either way: RGBA8, R32_SFLOAT or D32_SFLOAT.
                      region.imageSubresource = {VkImageAspectFlags(isDepthFormat(image.format) ? VK_IMAGE_ASPECT_DEPTH_BIT
                                                                                                 : VK_IMAGE_ASPECT_COLOR_BIT),
                                                 0, 0, 1};
                      region.imageExtent = {image.extent.width, image.extent.height, 1};
                      vkCmdCopyImageToBuffer(cmd, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                             g.buffer(target), 1, &region);
                  });
}

std::vector<float> readFloats(const Buffer& readback, VkExtent2D extent)
{
    std::vector<float> values(size_t(extent.width) * extent.height);
    if (!readback.mapped || readback.size < values.size() * sizeof(float))
        fail("read-back buffer is not mapped or too small for the image (engine bug)");
    std::memcpy(values.data(), readback.mapped, values.size() * sizeof(float));
    return values;
}

RgbaImage readRgba(const Buffer& readback, VkExtent2D extent)
{
    RgbaImage image;
    image.width = extent.width;
    image.height = extent.height;
    image.pixels.resize(size_t(extent.width) * extent.height * 4);
    if (!readback.mapped || readback.size < image.pixels.size())
        fail("read-back buffer is not mapped or too small for the image (engine bug)");
    std::memcpy(image.pixels.data(), readback.mapped, image.pixels.size());
    return image;
}

} // namespace isoscope
