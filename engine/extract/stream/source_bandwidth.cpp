#include "extract/stream/source_bandwidth.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "core/context.h"
#include "core/error.h"
#include "core/host_import.h"
#include "core/memory.h"
#include "core/stopwatch.h"
#include "extract/stream/slab_staging.h"
#include "graph/graph_queue.h"
#include "graph/render_graph.h"
#include "volume/volume_source.h"

namespace isoscope {

namespace {

// A staging buffer as the streamed extraction's staging is: host pages the
// device imports where it can, else the driver's pinned memory.
struct StagingBuffer {
    HostImportedBuffer imported;
    Buffer pinned;
    std::byte* data = nullptr;
    const Buffer& buffer() const { return imported.buffer ? imported.buffer : pinned; }
};

// One staging buffer's upload to its own target: a graph for whole pieces,
// compiled once and recorded again each turn; the last, shorter piece gets
// one of its own.
std::unique_ptr<RenderGraph> uploadGraph(Context& context, const Buffer& staging, const Buffer& target,
                                         uint64_t bytes)
{
    auto graph = std::make_unique<RenderGraph>(context, QueueRole::Transfer);
    ResourceId from = graph->importBuffer("source staging", staging.buffer);
    ResourceId to = graph->importBuffer("source upload target", target.buffer);
    VkBufferCopy region{0, 0, bytes};
    graph->addPass("source upload", PassKind::Transfer, {{from, Use::TransferSrc}, {to, Use::TransferDst}},
                   [=](VkCommandBuffer cmd, const RenderGraph& g) {
                       vkCmdCopyBuffer(cmd, g.buffer(from), g.buffer(to), 1, &region);
                   },
                   true); // nothing reads the target: kept all the same
    graph->compile();
    return graph;
}

} // namespace

SourceBandwidth measureSourceUpload(Context& context, VolumeSource& source, uint64_t pieceBytes, uint32_t buffers)
{
    if (buffers < 2)
        fail("a source upload measurement needs at least 2 staging buffers, not " + std::to_string(buffers) +
             " (engine bug)");
    const uint64_t planeBytes = source.planeBytes();
    const uint32_t planes = source.grid().dims[2];
    const uint32_t piecePlanes = uint32_t(std::clamp<uint64_t>(pieceBytes / planeBytes, 1, planes));
    const uint32_t pieces = (planes + piecePlanes - 1) / piecePlanes;
    const uint64_t bytes = planeBytes * piecePlanes;
    buffers = std::min(buffers, pieces);

    // Declared before the queue and the graphs: destroyed after them, once the uploads in flight are done.
    Allocator& allocator = context.allocator();
    bool importPages = stagingImportWanted() && canImportHostMemory(context);
    std::vector<StagingBuffer> staging(buffers);
    std::vector<Buffer> targets;
    for (StagingBuffer& buffer : staging) {
        if (importPages) {
            try {
                buffer.imported =
                    importHostBuffer(context, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, "source upload staging");
                buffer.data = buffer.imported.data();
            } catch (const Error&) {
                importPages = false; // the driver's memory below, as the streamed staging falls back
            }
        }
        if (!buffer.data) {
            buffer.pinned = allocator.createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUsage::Upload,
                                                   "source upload staging");
            buffer.data = static_cast<std::byte*>(buffer.pinned.mapped);
        }
        std::memset(buffer.data, 0, size_t(bytes)); // its pages present before the clock starts
        targets.push_back(allocator.createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUsage::DeviceLocal,
                                                 "source upload target"));
    }
    std::vector<std::unique_ptr<RenderGraph>> whole(buffers);
    std::unique_ptr<RenderGraph> last;
    for (uint32_t b = 0; b < buffers; ++b)
        whole[b] = uploadGraph(context, staging[b].buffer(), targets[b], bytes);
    GraphQueue queue(context, QueueRole::Transfer);

    SourceBandwidth result;
    result.stagingImported = importPages;
    result.pieces = pieces;
    result.pieceBytes = bytes;
    result.buffers = buffers;
    std::vector<uint64_t> uploaded(buffers, 0);
    std::vector<RenderGraph*> recorded(buffers, nullptr);
    auto collect = [&](uint32_t b) {
        if (!recorded[b])
            return;
        queue.wait(uploaded[b]);
        for (const auto& [name, ms] : recorded[b]->passTimings())
            result.uploadGpuMs += ms;
        recorded[b] = nullptr;
    };
    Clock::time_point start = Clock::now();
    for (uint32_t i = 0; i < pieces; ++i) {
        uint32_t b = i % buffers;
        Clock::time_point waitStart = Clock::now();
        collect(b);
        result.stagingWaitMs += msSince(waitStart);
        uint32_t first = i * piecePlanes, count = std::min(piecePlanes, planes - first);
        Clock::time_point readStart = Clock::now();
        source.readPlanes(first, count, staging[b].data);
        result.readMs += msSince(readStart);
        RenderGraph* graph = whole[b].get();
        if (count < piecePlanes) {
            last = uploadGraph(context, staging[b].buffer(), targets[b], planeBytes * count);
            graph = last.get();
        }
        uploaded[b] = queue.submit({graph});
        recorded[b] = graph;
        result.bytes += planeBytes * count;
    }
    for (uint32_t b = 0; b < buffers; ++b)
        collect(b);
    result.wallMs = msSince(start);
    return result;
}

} // namespace isoscope
