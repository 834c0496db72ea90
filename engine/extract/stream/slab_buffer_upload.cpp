#include "extract/stream/slab_buffer_upload.h"

#include "core/error.h"
#include "graph/render_graph.h"
#include "volume/region_upload.h"

namespace isoscope {

void addSlabBufferUploadPass(RenderGraph& graph, const GpuVolume& volume, const Buffer& staging, uint32_t planes)
{
    std::array<uint32_t, 3> dims = volume.dims();
    uint64_t bytes = uint64_t(dims[0]) * dims[1] * planes * scalarSize(volume.type());
    if (!volume.buffer() || planes == 0 || planes > dims[2] || bytes > staging.size)
        fail("a slab upload of " + std::to_string(planes) + " planes into a buffer of " + std::to_string(dims[2]) +
             " (an engine bug)");
    // Buffers have no layout: the image's states with it left undefined.
    ResourceState before = kVolumeAfterEarlierWork, after = kVolumeVisibleToLaterWork;
    before.layout = after.layout = VK_IMAGE_LAYOUT_UNDEFINED;
    ResourceId target = graph.importBuffer("slab samples", volume.buffer().buffer, before, after);
    ResourceId stagingId = graph.importBuffer("slab staging", staging.buffer);
    VkBufferCopy copy{0, 0, bytes};
    graph.addPass("slab upload", PassKind::Transfer, {{stagingId, Use::TransferSrc}, {target, Use::TransferDst}},
                  [=](VkCommandBuffer cmd, const RenderGraph& g) {
                      vkCmdCopyBuffer(cmd, g.buffer(stagingId), g.buffer(target), 1, &copy);
                  });
}

} // namespace isoscope
