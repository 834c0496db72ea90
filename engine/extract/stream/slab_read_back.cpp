#include "extract/stream/slab_read_back.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "core/context.h"
#include "core/error.h"
#include "core/stopwatch.h"
#include "extract/stream/mesh_read_back.h"
#include "extract/stream/streamed_extraction.h"
#include "graph/graph_queue.h"
#include "graph/render_graph.h"

namespace isoscope {

SlabReadBack::SlabReadBack(Context& context, GraphQueue& queue, MeshSink& sink, std::vector<SlabStats>& slabs,
                           bool import)
    : context_(context), queue_(queue), welder_(sink), slabs_(slabs),
      import_(import && canImportHostMemory(context, VK_BUFFER_USAGE_TRANSFER_DST_BIT))
{
    for (uint32_t i = 0; i < kSlots; ++i) {
        slots_.push_back(std::make_unique<Slot>());
        ring_.push_back(i);
    }
}

SlabReadBack::~SlabReadBack()
{
    waitAll();
}

void SlabReadBack::waitAll()
{
    // After an error, welds may still run. A future's destructor need not
    // wait for its thread (the next weld's thread holds a copy of it, its
    // `before`), and a weld reads its slot's pages, which go with the slot.
    for (const auto& slot : slots_)
        if (slot->weld.valid())
            slot->weld.wait();
}

uint64_t SlabReadBack::deviceBytes() const
{
    uint64_t bytes = 0;
    for (const auto& slot : slots_)
        bytes += slot->buffer.deviceLocal ? slot->buffer.allocated : 0;
    return bytes;
}

void SlabReadBack::finish(Slot& slot, SlabStats* current)
{
    if (!slot.weld.valid())
        return;
    Clock::time_point start = Clock::now();
    std::shared_future<WeldTimes> weld = std::move(slot.weld);
    slot.weld = {};
    WeldTimes times = weld.get();
    if (current)
        current->weldWaitMs += msSince(start);
    SlabStats* owner = slot.slab < slabs_.size() ? &slabs_[slot.slab] : current;
    if (owner) {
        owner->weldMs += times.weldMs;
        owner->weldSinkMs += times.sinkMs;
        owner->readBackMs += times.readBackMs;
    }
}

void SlabReadBack::finishAll(SlabStats* current)
{
    // The oldest first: welds run in slab order.
    for (size_t i = 0; i < ring_.size(); ++i)
        finish(*slots_[ring_[(next_ + i) % ring_.size()]], current);
}

SlabReadBack::Slot& SlabReadBack::nextSlot(uint64_t bytes)
{
    Slot* slot = slots_[ring_[next_]].get();
    if (slots_.size() < kMaxSlots && bytes <= kGrowBytes && !onDevice_ && slot->weld.valid() &&
        slot->weld.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
        // Before the oldest in the ring: it comes next after this one, a part later than it would have.
        slots_.push_back(std::make_unique<Slot>());
        ring_.insert(ring_.begin() + next_, uint32_t(slots_.size() - 1));
        slot = slots_.back().get();
    }
    next_ = (next_ + 1) % uint32_t(ring_.size());
    return *slot;
}

void SlabReadBack::releaseForNewMesh()
{
    finishAll();
    for (const auto& slot : slots_) {
        slot->graph.reset();
        if (slot->buffer.deviceLocal) { // counted beside the mesh; host memory stays for the next slabs
            slot->buffer = Buffer{};
            slot->data = nullptr;
        }
    }
}

void SlabReadBack::makeRoom(Slot& slot, uint64_t bytes)
{
    // Twice this part's mesh where the buffer is host memory (pinned pages
    // take long to allocate: the mesh's capacity took ~95 ms on the H100);
    // device memory (lavapipe), held one part at a time, just this part's,
    // as the budget check counts it.
    uint64_t size = onDevice_ && !import_ ? bytes : std::max(bytes * 2, uint64_t(1) << 20);
    slot.graph.reset();
    slot.buffer = Buffer{};
    slot.pages.reset();
    if (import_) {
        try {
            HostImportedBuffer imported =
                importHostBuffer(context_, size, VK_BUFFER_USAGE_TRANSFER_DST_BIT, "slab mesh read-back");
            slot.pages = std::move(imported.pages);
            slot.buffer = std::move(imported.buffer);
        } catch (const Error&) {
            import_ = false; // the driver's memory below does the same, slower to make
        }
    }
    if (!slot.buffer)
        slot.buffer = context_.allocator().createBuffer(size, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUsage::Readback,
                                                        "slab mesh read-back");
    slot.data = slot.pages.data ? slot.pages.data : static_cast<std::byte*>(slot.buffer.mapped);
    onDevice_ = slot.buffer.deviceLocal;
}

void SlabReadBack::download(const GpuMesh& mesh, const Buffer& codes, const GpuMeshCounters& counters,
                            double volumeDone, SlabStats& stats)
{
    MeshReadBackLayout layout{counters.vertexCount, counters.faceCount};
    Slot& slot = nextSlot(layout.bytes());
    finish(slot, &stats); // a ring's length of parts back: it reads this buffer
    Clock::time_point start = Clock::now();
    if (slot.buffer.size < layout.bytes())
        makeRoom(slot, layout.bytes());
    uint64_t copied = 0;
    slot.graph.reset();
    if (layout.bytes() > 0) {
        slot.graph = std::make_unique<RenderGraph>(context_);
        addMeshReadBackPass(*slot.graph, mesh, codes, layout, slot.buffer);
        slot.graph->compile();
        copied = queue_.submit({slot.graph.get()});
    }
    stats.vertices += counters.vertexCount;
    stats.triangles += counters.faceCount;
    stats.downloadMs += msSince(start);
    slot.slab = slabs_.size(); // this slab's stats go there next
    std::byte* base = slot.data;
    RenderGraph* graph = slot.graph.get();
    std::shared_future<WeldTimes> before = lastWeld_;
    slot.weld = std::async(std::launch::async, [this, layout, base, copied, graph, before, volumeDone] {
                    if (before.valid())
                        before.get(); // slab order; the sink's error ends this one too
                    queue_.wait(copied);
                    double readBackMs = 0;
                    if (graph)
                        for (auto& [name, ms] : graph->passTimings())
                            readBackMs += ms;
                    Clock::time_point weldStart = Clock::now();
                    welder_.addSlab(
                        {reinterpret_cast<const GpuMeshVertex*>(base), size_t(layout.vertices)},
                        {reinterpret_cast<uint32_t*>(base + layout.indexOffset()), size_t(layout.triangles * 3)},
                        {reinterpret_cast<const uint32_t*>(base + layout.codeOffset()), size_t(layout.vertices)},
                        volumeDone);
                    return WeldTimes{msSince(weldStart), welder_.lastSinkMs(), readBackMs};
                }).share();
    lastWeld_ = slot.weld;
    if (slot.buffer.deviceLocal) {
        // Device memory (lavapipe): not held beside the next slab's graphs,
        // whose transients the budget check counted without it.
        finishAll(&stats);
        slot.graph.reset();
        slot.buffer = Buffer{};
        slot.data = nullptr;
    }
}

} // namespace isoscope
