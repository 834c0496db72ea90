#include "extract/stream/streamed_extraction.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <future>
#include <map>
#include <memory>

#include "core/context.h"
#include "core/error.h"
#include "core/parallel_for.h"
#include "core/text.h"
#include "core/transfer.h"
#include "extract/gpu_extractor.h"
#include "extract/stream/mesh_read_back.h"
#include "graph/render_graph.h"
#include "mesh/mesh_buffers.h"
#include "volume/gpu_volume.h"

namespace isoscope {

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// A slab image of 1 GiB is uploaded in ~25 ms at the H100's 40-50 GB/s:
// long enough that the per-slab costs (graphs, submissions) stay small.
constexpr uint64_t kSlabImageBytes = uint64_t(1) << 30;

constexpr VkBufferUsageFlags kCodeUsage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;

// A slab: cell layers [z0, z1) of the volume, its grid planes [z0, z1], and
// the image planes [z0 - below, z1 + above] around them.
struct SlabWindow {
    uint32_t z0 = 0, z1 = 0;
    uint32_t below = 0, above = 0;
    uint32_t firstImagePlane() const { return z0 - below; }
    uint32_t imagePlanes() const { return z1 - z0 + 1 + below + above; }
    uint32_t gridPlanes() const { return z1 - z0 + 1; }
};

SlabWindow slabWindow(uint32_t nz, uint32_t z0, uint32_t layers)
{
    SlabWindow w;
    w.z0 = z0;
    w.z1 = std::min(z0 + layers, nz - 1);
    w.below = z0 > 0 ? 1 : 0;
    w.above = w.z1 + 1 < nz ? 1 : 0;
    return w;
}

uint64_t blocksOf(const Volume& grid, uint32_t planes, std::array<uint32_t, 3> block)
{
    return uint64_t((grid.dims[0] + block[0] - 1) / block[0]) * ((grid.dims[1] + block[1] - 1) / block[1]) *
           ((planes + block[2] - 1) / block[2]);
}

// What one slab's extraction holds besides its image: staging and work buffers.
struct SlabBuffers {
    Buffer staging[2];
    std::vector<std::byte> raw[2]; // the source's samples where the image converts them to float
};

} // namespace

uint64_t streamSlabBytes(const SlabMethod& method, const Volume& grid, uint32_t cellLayers)
{
    uint64_t planeTexels = uint64_t(grid.dims[0]) * grid.dims[1];
    uint64_t imagePlanes = uint64_t(cellLayers) + 3; // the grid's planes and one either side
    uint64_t image = planeTexels * imagePlanes * method.texelBytes();
    return image * 3 + method.workBytes(cellLayers); // the image and two staging buffers of its size
}

uint32_t planSlabLayers(const SlabMethod& method, const Volume& grid, uint64_t budget)
{
    uint32_t cells = grid.dims[2] - 1;
    uint64_t one = streamSlabBytes(method, grid, 1);
    if (one > budget)
        fail("streaming '" + grid.source + "' (" + std::to_string(grid.dims[0]) + "x" + std::to_string(grid.dims[1]) +
             "x" + std::to_string(grid.dims[2]) + " " + std::string(scalarName(grid.type)) + "): a slab of one cell "
             "layer needs " + formatBytes(one) + " (its 4 planes on the device and in two staging buffers, and the " +
             method.name() + " method's work buffers), more than the device budget of " + formatBytes(budget) +
             ": give a larger --device-budget");
    // The largest layer count whose slab takes at most half the budget, and
    // whose image holds at most kSlabImageBytes: more, smaller slabs keep
    // reading, upload, extraction and read-back in step (the first slab's
    // read and the last's read-back overlap nothing) and the pinned staging small.
    uint64_t planeBytes = uint64_t(grid.dims[0]) * grid.dims[1] * method.texelBytes();
    uint32_t high = uint32_t(std::clamp<uint64_t>(kSlabImageBytes / planeBytes, 4, uint64_t(cells) + 3) - 3);
    uint32_t low = 1;
    while (low < high) {
        uint32_t mid = low + (high - low + 1) / 2;
        if (streamSlabBytes(method, grid, mid) <= budget / 2)
            low = mid;
        else
            high = mid - 1;
    }
    return low;
}

bool needsStreaming(const Context& context, const Volume& grid, uint64_t budget)
{
    if (grid.dims[2] < 2)
        return false;
    uint64_t planeTexels = uint64_t(grid.dims[0]) * grid.dims[1];
    uint64_t image = planeTexels * grid.dims[2] * volumeTexelBytes(context, grid.type);
    uint64_t blocks = blocksOf(grid, grid.dims[2], {8, 4, 4});
    // In core: the image, the block method's buffers, and room for a first mesh of a quarter of its size.
    return image + blocks * 6 + image / 4 > budget;
}

namespace {

class Streamer {
public:
    Streamer(Context& context, VolumeSource& source, float iso, const ExtractOptions& options,
             const StreamOptions& stream, MeshSink& sink)
        : context_(context), source_(source), iso_(iso), stream_(stream), welder_(sink),
          grid_(source.grid())
    {
        budget_ = stream.deviceBudget ? stream.deviceBudget : context.allocator().deviceBudgetBytes();
        method_ = createSlabMethod(context, grid_, options, budget_);
        nz_ = grid_.dims[2];
        if (grid_.dims[0] < 2 || grid_.dims[1] < 2 || nz_ < 2)
            fail("'" + grid_.source + "': streamed extraction needs at least 2 samples along each axis");
        if (uint64_t(grid_.dims[0]) * grid_.dims[1] * 2 > (uint64_t(1) << 31))
            fail("'" + grid_.source + "': planes of " + std::to_string(grid_.dims[0]) + "x" +
                 std::to_string(grid_.dims[1]) + " samples are too large to weld (edge codes hold 2^31 edges a plane)");
        planned_ = planSlabLayers(*method_, grid_, budget_);
        if (stream.maxSlabLayers)
            planned_ = std::min(planned_, stream.maxSlabLayers);
        texelBytes_ = method_->texelBytes();
        converted_ = method_->converted();
        imagePlanes_ = std::min(planned_ + 3, nz_);
        // Until a graph says: the transients streamSlabBytes counts.
        transientReserve_ = method_->transientBytes(planned_);
    }

    StreamReport run()
    {
        Clock::time_point start = Clock::now();
        Allocator& allocator = context_.allocator();
        allocator.resetPeak();
        report_.method = method_->name();
        report_.device = context_.info().name;
        report_.subgroupSize = context_.info().subgroupSize;
        report_.deviceBudget = budget_;
        report_.plannedCellLayers = planned_;
        report_.volumeBytes = grid_.byteSize();

        uint64_t stagingBytes = planeTexels() * texelBytes_ * imagePlanes_;
        for (int i = 0; i < 2; ++i) {
            buffers_.staging[i] = allocator.createBuffer(stagingBytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                                         MemoryUsage::Upload, "slab staging");
            if (converted_)
                buffers_.raw[i].resize(size_t(planeTexels() * scalarSize(grid_.type) * imagePlanes_));
        }
        countersHost_ = allocator.createBuffer(sizeof(GpuMeshCounters), VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                               MemoryUsage::Readback, "mesh counters read-back");
        report_.stagingBytes = 2 * stagingBytes;
        progress(0);

        uint32_t ring = 0;
        uint32_t z0 = 0;
        SlabWindow next = slabWindow(nz_, 0, planned_);
        std::future<double> pending = readAsync(next, ring);
        while (z0 + 1 < nz_) {
            SlabWindow w = slabWindow(nz_, z0, std::min(planned_, nz_ - 1 - z0));
            Clock::time_point waitStart = Clock::now();
            SlabStats stats;
            stats.readMs = pending.get();
            if (next.z0 != w.z0 || next.z1 != w.z1) // a split slab: the prefetch read other planes
                stats.readMs = readPlanes(w, ring);
            stats.waitMs = msSince(waitStart);
            stats.firstPlane = w.z0;
            bool upload = true;
            if (!gpuVolume_) {
                createImage(ring);
                upload = false;
            }
            // The next slab's planes go into the other staging buffer while the GPU works on this one.
            next = slabWindow(nz_, w.z1, std::min(planned_, nz_ - 1 - std::min(w.z1, nz_ - 1)));
            if (w.z1 + 1 < nz_)
                pending = readAsync(next, ring ^ 1u);
            else
                pending = std::async(std::launch::deferred, [] { return 0.0; });

            SlabWindow done = extractSlab(w, ring, upload, stats);
            stats.wallMs = msSince(waitStart);
            report_.slabs.push_back(stats);
            z0 = done.z1;
            if (done.z1 != w.z1) {
                // Split: the rest of this staging buffer's planes are read again.
                pending.wait();
                next = SlabWindow{};
                pending = std::async(std::launch::deferred, [] { return 0.0; });
                continue;
            }
            ring ^= 1u;
        }
        finishWeld();
        report_.vertexCount = welder_.vertexCount();
        report_.faceCount = welder_.triangleCount();
        report_.peakDeviceBytes = allocator.peakDeviceBytes();
        report_.wallMs = msSince(start);
        return report_;
    }

private:
    uint64_t planeTexels() const { return uint64_t(grid_.dims[0]) * grid_.dims[1]; }

    void progress(uint64_t planesDone)
    {
        if (stream_.progress)
            stream_.progress(ProgressStep{progressWhat_, planesDone, nz_, "planes", report_.bytesRead});
    }

    // Reads the window's image planes into staging buffer `ring` (converted
    // to float where the image is), and fills the planes after them with a
    // copy of the last: past the volume's end that is the in-core image's
    // clamp-to-edge, and no texel the filter may touch is left undefined.
    // Returns milliseconds.
    double readPlanes(const SlabWindow& w, uint32_t ring)
    {
        Clock::time_point start = Clock::now();
        auto* staging = static_cast<std::byte*>(buffers_.staging[ring].mapped);
        std::byte* target = converted_ ? buffers_.raw[ring].data() : staging;
        uint64_t planeBytes = source_.planeBytes();
        uint32_t planes = w.imagePlanes();
        source_.readPlanes(w.firstImagePlane(), planes, target);
        for (uint32_t p = planes; p < imagePlanes_; ++p)
            std::memcpy(target + p * planeBytes, target + (planes - 1) * planeBytes, planeBytes);
        if (converted_) {
            uint64_t count = planeTexels() * imagePlanes_;
            constexpr uint64_t piece = uint64_t(1) << 20;
            parallelFor((count + piece - 1) / piece, hostThreads(), [&](uint64_t item) {
                for (uint64_t i = item * piece; i < std::min(count, (item + 1) * piece); ++i)
                    reinterpret_cast<float*>(staging)[i] = sampleValue(target, grid_.type, i);
            });
        }
        bytesReadPending_ += planeBytes * planes;
        return msSince(start);
    }

    std::future<double> readAsync(const SlabWindow& w, uint32_t ring)
    {
        return std::async(std::launch::async, [this, w, ring] { return readPlanes(w, ring); });
    }

    void createImage(uint32_t ring)
    {
        Volume image = grid_;
        image.dims[2] = imagePlanes_;
        const std::byte* samples =
            converted_ ? buffers_.raw[ring].data() : static_cast<const std::byte*>(buffers_.staging[ring].mapped);
        gpuVolume_ = std::make_unique<GpuVolume>(context_, image, method_->volumeUsage(), samples);
    }

    struct SlabExtractor {
        std::unique_ptr<Volume> grid;
        std::unique_ptr<GpuExtractor> extractor;
    };

    GpuExtractor& extractorFor(uint32_t gridPlanes)
    {
        auto found = extractors_.find(gridPlanes);
        if (found != extractors_.end())
            return *found->second.extractor;
        // Slabs of the planned size and the last one are the usual two; split slabs add others.
        if (extractors_.size() >= 3)
            extractors_.clear();
        SlabExtractor slab;
        slab.grid = std::make_unique<Volume>(grid_);
        slab.grid->dims[2] = gridPlanes;
        slab.grid->stats = {};
        FieldSource field{slab.grid.get(), gpuVolume_.get()};
        slab.extractor = createGpuExtractor(context_, method_->name(), field, method_->extractOptions());
        GpuExtractor& extractor = *slab.extractor;
        extractors_.emplace(gridPlanes, std::move(slab));
        return extractor;
    }

    // Device bytes held now without the mesh, its edge codes and their
    // read-back buffer (device memory where the device maps its own).
    uint64_t heldWithoutMesh() const
    {
        uint64_t readBack = readBack_.deviceLocal ? readBack_.allocated : 0;
        return context_.allocator().currentDeviceBytes() - mesh_.deviceBytes() - codes_.allocated - readBack;
    }

    // A mesh (and edge codes) for the counts, if the budget holds it beside
    // the graph's transients (as large as the largest graph's so far) and,
    // where the device maps its own memory for the host (lavapipe), the
    // read-back buffer that takes a copy of it.
    bool allocateMesh(uint64_t vertices, uint64_t faces)
    {
        uint64_t bytes = vertices * (sizeof(GpuMeshVertex) + 4) + faces * 12 + 1024;
        uint64_t readBack = readBackOnDevice_ ? MeshReadBackLayout{vertices, faces}.bytes() : 0;
        if (heldWithoutMesh() + transientReserve_ + readBack + bytes > budget_)
            return false;
        finishWeld(); // it reads the read-back buffer, which goes with the mesh
        readBack_ = Buffer{};
        mesh_ = GpuMesh{};
        codes_ = Buffer{};
        mesh_ = createGpuMesh(context_, vertices, faces);
        codes_ = context_.allocator().createBuffer(uint64_t(mesh_.vertexCapacity) * 4, kCodeUsage,
                                                   MemoryUsage::DeviceLocal, "vertex edge codes");
        return true;
    }

    // Extracts window `w` (its planes in staging buffer `ring`), or, where its
    // mesh does not fit the budget, its first half (again as needed).
    // Returns the window extracted.
    SlabWindow extractSlab(SlabWindow w, uint32_t ring, bool upload, SlabStats& stats)
    {
        GpuMeshCounters counters{};
        Clock::time_point start = Clock::now();
        while (!extractWindow(w, ring, upload, stats, counters)) {
            upload = false; // the image keeps the planes; a half's are a prefix of them
            w = slabWindow(nz_, w.z0, (w.z1 - w.z0) / 2);
        }
        stats.teardownMs = msSince(start) - stats.setupMs - stats.gpuWaitMs;
        downloadSlab(w, stats, counters);
        return w;
    }

    void ensureMesh(GpuExtractor& extractor, const SlabWindow& w)
    {
        if (mesh_.vertices.buffer)
            return;
        std::array<uint64_t, 2> guess = extractor.estimateCapacity(iso_);
        while (!allocateMesh(guess[0], guess[1]))
            if (guess[0] <= 16)
                failBudget(w, guess[0], guess[1]);
            else
                guess = {guess[0] / 2, guess[1] / 2};
    }

    // Runs the window's graphs until nothing overflows; false where its mesh
    // does not fit the budget (and the window has layers to split). The
    // upload (a graph of its own: the extraction's graph imports the image
    // as the method's volume, and one graph must not import it twice) and
    // the extraction go in one submission, and the counters come back in it.
    bool extractWindow(const SlabWindow& w, uint32_t ring, bool upload, SlabStats& stats, GpuMeshCounters& counters)
    {
        Clock::time_point setupStart = Clock::now();
        GpuExtractor& extractor = extractorFor(w.gridPlanes());
        extractor.volumeChanged();
        ensureMesh(extractor, w);
        std::unique_ptr<RenderGraph> uploadGraph;
        if (upload) {
            uploadGraph = std::make_unique<RenderGraph>(context_);
            method_->addUploadPass(*uploadGraph, *gpuVolume_, buffers_.staging[ring], imagePlanes_);
            uploadGraph->compile();
        }
        for (uint32_t attempt = 0;; ++attempt) {
            if (attempt > 0)
                setupStart = Clock::now();
            RenderGraph graph(context_);
            MeshBuffers buffers = importMesh(graph, mesh_);
            ResourceId codes =
                graph.importBuffer("vertex edge codes", codes_.buffer, {},
                                   ResourceState{VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT});
            extractor.placeSlab({int32_t(w.z0), w.below, nz_, codes});
            extractor.addToGraph(graph, buffers, iso_);
            addCountersReadBackPass(graph, buffers.counters, countersHost_);
            graph.compile();
            transientReserve_ = std::max(transientReserve_, graph.transientBytes());
            Clock::time_point submitted = Clock::now();
            stats.setupMs += std::chrono::duration<double, std::milli>(submitted - setupStart).count();
            context_.submitAndWait([&](VkCommandBuffer cmd) {
                if (uploadGraph)
                    uploadGraph->record(cmd);
                graph.record(cmd);
            });
            stats.gpuWaitMs += msSince(submitted);
            if (uploadGraph) {
                for (auto& [name, ms] : uploadGraph->passTimings())
                    stats.uploadMs += ms;
                uploadGraph.reset();
            }
            for (auto& [name, ms] : graph.passTimings())
                if (name != "mesh counters read-back")
                    stats.extractMs += ms;
            std::memcpy(&counters, countersHost_.mapped, sizeof(counters));
            if (!counters.overflow)
                return true;
            if (attempt > 3)
                fail("a streamed slab overflowed its buffers again after growing them (an engine bug)");
            ++report_.overflowRetries;
            bool listGrew = extractor.growAfterOverflow();
            if (counters.vertexCount > mesh_.vertexCapacity || counters.faceCount > mesh_.faceCapacity) {
                uint64_t vertices = std::max<uint64_t>(counters.vertexCount, mesh_.vertexCapacity);
                uint64_t faces = std::max<uint64_t>(counters.faceCount, mesh_.faceCapacity);
                if (!allocateMesh(vertices, faces)) {
                    if (w.z1 - w.z0 == 1)
                        failBudget(w, vertices, faces);
                    ++report_.slabsSplit;
                    return false;
                }
            } else if (!listGrew) {
                fail("a streamed slab reported an overflow that no buffer explains (an engine bug)");
            }
        }
    }

    [[noreturn]] void failBudget(const SlabWindow& w, uint64_t vertices, uint64_t faces)
    {
        fail("streaming '" + grid_.source + "': the mesh of cell layer " + std::to_string(w.z0) + " alone (" +
             std::to_string(vertices) + " vertices, " + std::to_string(faces) + " triangles) needs " +
             formatBytes(vertices * 28 + faces * 12) + " beside the slab's " + formatBytes(heldWithoutMesh()) +
             ", more than the device budget of " + formatBytes(budget_) + ": give a larger --device-budget");
    }

    // Waits for the pending weld (which may throw the sink's error) and
    // books its time to its slab (`current` where that is the slab in hand).
    void finishWeld(SlabStats* current = nullptr)
    {
        if (!pendingWeld_.valid())
            return;
        Clock::time_point start = Clock::now();
        double ms = pendingWeld_.get();
        if (current)
            current->weldWaitMs += msSince(start);
        if (weldingSlab_ < report_.slabs.size())
            report_.slabs[weldingSlab_].weldMs = ms;
        else if (current)
            current->weldMs = ms;
    }

    // The slab's mesh into the read-back buffer (one copy pass; the slab
    // before must be welded first, it reads that buffer), then welded and
    // sent to the sink on a thread of its own while the next slab uploads
    // and extracts.
    void downloadSlab(const SlabWindow& w, SlabStats& stats, const GpuMeshCounters& counters)
    {
        finishWeld(&stats);
        Clock::time_point start = Clock::now();
        MeshReadBackLayout layout{counters.vertexCount, counters.faceCount};
        if (readBack_.size < layout.bytes()) {
            uint64_t capacity = MeshReadBackLayout{mesh_.vertexCapacity, mesh_.faceCapacity}.bytes();
            readBack_ = Buffer{};
            readBack_ = context_.allocator().createBuffer(std::max(capacity, layout.bytes()),
                                                          VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUsage::Readback,
                                                          "slab mesh read-back");
            readBackOnDevice_ = readBack_.deviceLocal;
        }
        if (layout.bytes() > 0) {
            RenderGraph graph(context_);
            addMeshReadBackPass(graph, mesh_, codes_, layout, readBack_);
            graph.compile();
            graph.execute();
            for (auto& [name, ms] : graph.passTimings())
                stats.readBackMs += ms;
        }
        stats.cellLayers = w.z1 - w.z0;
        stats.vertices = counters.vertexCount;
        stats.triangles = counters.faceCount;
        stats.downloadMs = msSince(start);
        report_.bytesRead += bytesReadPending_.exchange(0);
        weldingSlab_ = report_.slabs.size(); // this slab's stats go there next
        const auto* base = static_cast<const std::byte*>(readBack_.mapped);
        pendingWeld_ = std::async(std::launch::async, [this, layout, base] {
            Clock::time_point weldStart = Clock::now();
            welder_.addSlab({reinterpret_cast<const GpuMeshVertex*>(base), size_t(layout.vertices)},
                            {reinterpret_cast<const uint32_t*>(base + layout.indexOffset()), size_t(layout.triangles * 3)},
                            {reinterpret_cast<const uint32_t*>(base + layout.codeOffset()), size_t(layout.vertices)});
            return msSince(weldStart);
        });
        if (readBack_.deviceLocal) {
            // Device memory (lavapipe): not held beside the next slab's
            // graphs, whose transients the budget check counted without it.
            finishWeld(&stats);
            readBack_ = Buffer{};
        }
        progress(w.z1 + 1 == nz_ ? nz_ : w.z1);
    }

    Context& context_;
    VolumeSource& source_;
    float iso_;
    const StreamOptions& stream_;
    SlabWelder welder_;
    const Volume& grid_;
    std::unique_ptr<SlabMethod> method_;
    std::string progressWhat_ = "extracting '" + grid_.source + "'";
    uint64_t budget_ = 0;
    uint32_t nz_ = 0, planned_ = 0, imagePlanes_ = 0;
    uint32_t texelBytes_ = 1;
    bool converted_ = false;
    SlabBuffers buffers_;
    std::unique_ptr<GpuVolume> gpuVolume_;
    std::map<uint32_t, SlabExtractor> extractors_;
    GpuMesh mesh_;
    Buffer codes_;
    Buffer countersHost_;
    Buffer readBack_;
    bool readBackOnDevice_ = true; // until the first read-back buffer says where it lives
    uint64_t transientReserve_ = 0;
    std::atomic<uint64_t> bytesReadPending_{0};
    StreamReport report_;
    size_t weldingSlab_ = 0;
    std::future<double> pendingWeld_; // last: destroyed (waited for) before the buffers it reads
};

} // namespace

StreamReport extractStreamed(Context& context, VolumeSource& source, float iso, const ExtractOptions& options,
                             const StreamOptions& stream, MeshSink& sink)
{
    return Streamer(context, source, iso, options, stream, sink).run();
}

} // namespace isoscope
