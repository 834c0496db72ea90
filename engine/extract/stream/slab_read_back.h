#pragma once
// A streamed extraction's meshes on their way to the sink: each part's mesh
// copied into one of a ring of host read-back buffers in turn (one copy
// pass on the main queue, after the extraction, not waited for), then
// welded (extract/stream/slab_weld.h) and sent to the sink on a thread of
// its own, in slab order, once the copy is done, while the next slabs
// upload and extract. The ring starts with kSlots buffers; where the next
// one's weld is still running and the part's mesh is small, a buffer is
// added instead of waiting (a dense slab's weld then overlaps several
// slabs), up to kMaxSlots. The main thread waits for a weld only when its
// buffer comes round again.
#include <cstddef>
#include <cstdint>
#include <future>
#include <memory>
#include <vector>

#include "core/host_import.h"
#include "core/memory.h"
#include "extract/stream/slab_weld.h"
#include "mesh/gpu_mesh.h"

namespace isoscope {

class Context;
class GraphQueue;
class RenderGraph;
struct SlabStats;

class SlabReadBack {
public:
    // Read-back buffers in turn: the weld thread may fall this many parts
    // behind (a sink's pause, a larger slab) before the main thread waits
    // for it, or makes another buffer.
    static constexpr uint32_t kSlots = 3;
    static constexpr uint32_t kMaxSlots = 6;
    // A buffer is added for a part's mesh of at most this many bytes: a new
    // buffer (twice the part) is imported on the main thread, which cost
    // 34-59 ms for a dense file slab's 210 MB (docs/BENCHMARKS.md, calls
    // P-Q), more than the wait it would save; Cayley's slabs after its
    // densest are ~10 MB.
    static constexpr uint64_t kGrowBytes = uint64_t(16) << 20;

    // `slabs`: the finished slabs' stats, which each weld's times go to
    // (its slab's index is the list's size when it is downloaded); `import`:
    // buffers as host pages the device imports, where it can.
    SlabReadBack(Context& context, GraphQueue& queue, MeshSink& sink, std::vector<SlabStats>& slabs, bool import);
    ~SlabReadBack(); // waits for the welds, whose errors it drops
    SlabReadBack(const SlabReadBack&) = delete;
    SlabReadBack& operator=(const SlabReadBack&) = delete;

    // The part's mesh (`counters` of it, written by submissions on the
    // queue before) into the next buffer, and its weld started; first waits
    // for that buffer's weld (a ring's length of parts back), booking the
    // wait to `stats`, or adds a buffer where that weld still runs.
    // `volumeDone`: the part of the volume's cell layers up to the part's
    // end. Throws the sink's errors, from the weld waited for.
    void download(const GpuMesh& mesh, const Buffer& codes, const GpuMeshCounters& counters, double volumeDone,
                  SlabStats& stats);

    // Waits for every weld without taking its result (after an error: the
    // extraction's GPU work is then done, the copies coming after it).
    void waitAll();

    // Waits for every weld, the oldest first (their times to their slabs,
    // or to `current` where that is the slab in hand).
    void finishAll(SlabStats* current = nullptr);

    // Before the mesh is made anew: the welds finished (they read the copy
    // graphs' timings, which name the mesh), the graphs dropped, and device
    // read-back buffers (lavapipe) freed, as the budget counts them beside the mesh.
    void releaseForNewMesh();

    uint64_t deviceBytes() const; // read-back buffers in device memory (lavapipe), held now
    bool onDevice() const { return onDevice_; } // where buffers live (until the first: on the device)
    bool imported() const { return import_; }
    uint32_t slotCount() const { return uint32_t(slots_.size()); } // the ring's buffers now
    const SlabWelder& welder() const { return welder_; }

private:
    struct WeldTimes {
        double weldMs, sinkMs, readBackMs; // the weld's (the sink's share of it) and the read-back's GPU time
    };
    struct Slot {
        HostPages pages; // where the device imported them: after the buffer
        Buffer buffer;   // else persistently mapped, host-cached where the device has it
        std::byte* data = nullptr; // the buffer's bytes for the host (the weld renumbers the triangles there)
        std::unique_ptr<RenderGraph> graph;
        std::shared_future<WeldTimes> weld;
        size_t slab = 0; // slabs_ index its times go to
    };

    // The slot for the next part of `bytes`: the ring's next, or a new one
    // before it where its weld still runs.
    Slot& nextSlot(uint64_t bytes);
    void finish(Slot& slot, SlabStats* current);
    void makeRoom(Slot& slot, uint64_t bytes);

    Context& context_;
    GraphQueue& queue_;
    SlabWelder welder_;
    std::vector<SlabStats>& slabs_;
    bool import_ = false;
    bool onDevice_ = true;
    // The threads behind these futures: waited for in the destructor, before the buffers go.
    std::vector<std::unique_ptr<Slot>> slots_;
    std::vector<uint32_t> ring_; // slots_ indices in the order of use, from next_ the oldest first
    uint32_t next_ = 0;          // ring_ position used next
    std::shared_future<WeldTimes> lastWeld_; // the weld started last: the next one follows it
};

} // namespace isoscope
