#include "extract/stream/copy_bandwidth.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "core/context.h"
#include "core/error.h"
#include "graph/graph_queue.h"
#include "graph/render_graph.h"

namespace isoscope {

CopyBandwidth measureUploadBandwidth(Context& context, uint64_t bytes, uint32_t copies, QueueRole role,
                                     uint32_t queues)
{
    uint32_t available = role == QueueRole::Main ? 1 : context.transferQueueCount();
    if (queues == 0 || queues > available)
        fail("a copy measurement on " + std::to_string(queues) + " queues, the device has " +
             std::to_string(available) + " of that kind (engine bug)");
    Allocator& allocator = context.allocator();
    uint64_t part = bytes / queues / 4 * 4;
    Buffer staging = allocator.createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUsage::Upload,
                                            "copy bandwidth staging");
    std::memset(staging.mapped, 0x5a, size_t(bytes)); // touched, so the pages exist before the copies
    std::vector<Buffer> targets;
    std::vector<std::unique_ptr<GraphQueue>> graphQueues;
    for (uint32_t q = 0; q < queues; ++q) {
        targets.push_back(allocator.createBuffer(part, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUsage::DeviceLocal,
                                                 "copy bandwidth target"));
        graphQueues.push_back(std::make_unique<GraphQueue>(context, role, q));
    }
    auto run = [&](uint32_t count) {
        std::vector<std::unique_ptr<RenderGraph>> graphs;
        for (uint32_t q = 0; q < queues; ++q) {
            auto graph = std::make_unique<RenderGraph>(context, role);
            ResourceId source = graph->importBuffer("copy staging", staging.buffer);
            ResourceId destination = graph->importBuffer("copy target", targets[q].buffer);
            VkBufferCopy region{part * q, 0, part};
            for (uint32_t i = 0; i < count; ++i)
                graph->addPass("host to device copy", PassKind::Transfer,
                               {{source, Use::TransferSrc}, {destination, Use::TransferDst}},
                               [=](VkCommandBuffer cmd, const RenderGraph& g) {
                                   vkCmdCopyBuffer(cmd, g.buffer(source), g.buffer(destination), 1, &region);
                               },
                               true); // nothing reads the target: kept all the same
            graph->compile();
            graphs.push_back(std::move(graph));
        }
        std::vector<uint64_t> values;
        for (uint32_t q = 0; q < queues; ++q)
            values.push_back(graphQueues[q]->submit({graphs[q].get()}));
        double first = 0, last = 0;
        for (uint32_t q = 0; q < queues; ++q) {
            graphQueues[q]->wait(values[q]);
            auto [start, end] = graphs[q]->frameSpan();
            if (start == 0 && end == 0)
                return 0.0; // no timestamps on this queue
            first = q == 0 ? start : std::min(first, start);
            last = q == 0 ? end : std::max(last, end);
        }
        return last - first;
    };
    run(1);
    CopyBandwidth result;
    result.bytes = part * queues;
    result.copies = copies;
    result.queues = queues;
    result.role = role;
    result.gpuMs = run(copies);
    return result;
}

} // namespace isoscope
