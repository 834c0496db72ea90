#include "volume/region_upload.h"

#include <cstring>
#include <vector>

#include "core/context.h"
#include "core/error.h"
#include "graph/render_graph.h"

namespace isoscope {

Buffer addRegionUploadPass(RenderGraph& graph, Context& context, const GpuVolume& gpu, const VolumeRegion& region,
                           const void* samples)
{
    const std::array<uint32_t, 3> dims = gpu.dims();
    if (gpu.padded())
        fail("a region upload needs an unpadded GPU volume (engine bug)");
    for (int axis = 0; axis < 3; ++axis)
        if (region.extent[axis] == 0 || uint64_t(region.offset[axis]) + region.extent[axis] > dims[axis])
            fail("a region upload past the volume or empty on axis " + std::to_string(axis) +
                 " (engine bug: checkRegionUpdate first)");
    const Image& image = gpu.image();
    const size_t sampleBytes = scalarSize(gpu.type());
    // Where the device lacks the native format the image holds floats (gpu_volume.h).
    const bool converted = image.format == VK_FORMAT_R32_SFLOAT && gpu.type() != ScalarType::Float32;
    const uint64_t count = region.sampleCount();
    const uint64_t rowSamples = region.extent[0];
    // The staging buffer: the image's texels where they are converted, then the raw samples.
    const VkDeviceSize rawOffset = converted ? count * sizeof(float) : 0;
    Buffer staging = context.allocator().createBuffer(rawOffset + count * sampleBytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                                      MemoryUsage::Upload, "volume region staging");
    auto* mapped = static_cast<std::byte*>(staging.mapped);
    std::memcpy(mapped + rawOffset, samples, count * sampleBytes);
    if (converted)
        for (uint64_t i = 0; i < count; ++i)
            reinterpret_cast<float*>(mapped)[i] = sampleValue(static_cast<const std::byte*>(samples), gpu.type(), i);
    // The buffer's rows: one copy per x-row of the region.
    std::vector<VkBufferCopy> rows;
    forEachRegionRow(dims, region, [&](uint64_t index, uint64_t row) {
        rows.push_back({rawOffset + row * rowSamples * sampleBytes, index * sampleBytes, rowSamples * sampleBytes});
    });

    GraphImage target{image.image, image.view, image.format, {image.extent.width, image.extent.height}};
    ResourceId imageId = graph.importImage("volume image", target, kVolumeAfterEarlierWork, kVolumeVisibleToLaterWork);
    ResourceId stagingId = graph.importBuffer("volume region staging", staging.buffer);
    std::vector<ResourceUse> uses = {{stagingId, Use::TransferSrc}, {imageId, Use::TransferDst}};
    ResourceId bufferId = kNoResource;
    if (gpu.buffer()) {
        ResourceState before = kVolumeAfterEarlierWork, after = kVolumeVisibleToLaterWork;
        before.layout = after.layout = VK_IMAGE_LAYOUT_UNDEFINED;
        bufferId = graph.importBuffer("volume samples", gpu.buffer().buffer, before, after);
        uses.push_back({bufferId, Use::TransferDst});
    } else {
        rows.clear();
    }
    VkBufferImageCopy box{};
    box.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    box.imageOffset = {int32_t(region.offset[0]), int32_t(region.offset[1]), int32_t(region.offset[2])};
    box.imageExtent = {region.extent[0], region.extent[1], region.extent[2]};
    graph.addPass("volume region upload", PassKind::Transfer, std::move(uses),
                  [=](VkCommandBuffer cmd, const RenderGraph& g) {
                      vkCmdCopyBufferToImage(cmd, g.buffer(stagingId), g.image(imageId).image,
                                             VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &box);
                      if (!rows.empty())
                          vkCmdCopyBuffer(cmd, g.buffer(stagingId), g.buffer(bufferId), uint32_t(rows.size()),
                                          rows.data());
                  });
    return staging;
}

} // namespace isoscope
