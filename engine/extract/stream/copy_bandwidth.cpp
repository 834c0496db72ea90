#include "extract/stream/copy_bandwidth.h"

#include <cstring>

#include "core/context.h"
#include "graph/render_graph.h"

namespace isoscope {

CopyBandwidth measureUploadBandwidth(Context& context, uint64_t bytes, uint32_t copies)
{
    Allocator& allocator = context.allocator();
    Buffer staging = allocator.createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUsage::Upload,
                                            "copy bandwidth staging");
    std::memset(staging.mapped, 0x5a, size_t(bytes)); // touched, so the pages exist before the copies
    Buffer target = allocator.createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUsage::DeviceLocal,
                                           "copy bandwidth target");
    auto run = [&](uint32_t count) {
        RenderGraph graph(context);
        ResourceId source = graph.importBuffer("copy staging", staging.buffer);
        ResourceId destination = graph.importBuffer("copy target", target.buffer);
        VkBufferCopy region{0, 0, bytes};
        for (uint32_t i = 0; i < count; ++i)
            graph.addPass("host to device copy", PassKind::Transfer,
                          {{source, Use::TransferSrc}, {destination, Use::TransferDst}},
                          [=](VkCommandBuffer cmd, const RenderGraph& g) {
                              vkCmdCopyBuffer(cmd, g.buffer(source), g.buffer(destination), 1, &region);
                          },
                          true); // nothing reads the target: kept all the same

        graph.compile();
        graph.execute();
        double ms = 0;
        for (auto& [name, passMs] : graph.passTimings())
            ms += passMs;
        return ms;
    };
    run(1);
    CopyBandwidth result;
    result.bytes = bytes;
    result.copies = copies;
    result.gpuMs = run(copies);
    return result;
}

} // namespace isoscope
