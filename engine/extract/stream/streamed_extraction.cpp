#include "extract/stream/streamed_extraction.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <deque>
#include <exception>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <tuple>
#include <utility>

#include "core/context.h"
#include "core/error.h"
#include "core/host_import.h"
#include "core/parallel_for.h"
#include "core/stopwatch.h"
#include "core/text.h"
#include "core/transfer.h"
#include "extract/gpu_extractor.h"
#include "extract/stream/mesh_read_back.h"
#include "extract/stream/slab_read_back.h"
#include "extract/stream/slab_method.h"
#include "extract/stream/slab_staging.h"
#include "graph/graph_queue.h"
#include "graph/render_graph.h"
#include "mesh/mesh_buffers.h"
#include "volume/gpu_volume.h"

namespace isoscope {

namespace {

// The cores a slab's read takes: all but one where there are more than
// four, which the weld keeps (waited for in the densest slabs, it slowed
// and stalled the uploads when it shared every core with the read; all but
// two slowed float32 generation more than it helped: docs/BENCHMARKS.md).
unsigned readThreads()
{
    unsigned cores = hostThreads();
    return cores > 4 ? cores - 1 : cores;
}

constexpr VkBufferUsageFlags kCodeUsage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;

// Whole planes of the staging: a range of its host pages imported on its
// own (else the driver's pinned allocation), read into and uploaded from on
// its own.
struct StagingPiece {
    Buffer buffer;
    std::byte* data = nullptr;  // its planes: the reader writes them once `ready`
    uint32_t firstPlane = 0, planes = 0;
    bool imported = false;
    std::promise<void> made;
    std::shared_future<void> ready = made.get_future().share();
};

// The staging: one slab image's planes in pieces, each a buffer of its
// own, used round by round: slab k's piece p is read into piece p once
// slab k-1's piece p is uploaded, and uploaded by a submission of its own,
// so that what must be pinned before the uploads run at full rate is one
// slab's staging, not one per ring slot (pinning took ~9 GB/s on the
// H200's host, 1 GiB ~110 ms of a ~950 ms run: docs/BENCHMARKS.md).
struct StagingRing {
    HostPages pages;                  // imported staging's host pages (core/host_import.h); after the buffers
    std::vector<StagingPiece> pieces; // the host reads the slabs' planes into them
    std::vector<uint64_t> freeAfter;  // per piece, transfer timeline: its last upload is done
    std::vector<std::byte> raw;       // a piece's source samples where the image converts them to float
    // Made on a thread of its own; declared last, so destroyed (waited for) before the rest.
    std::shared_future<void> ready;
};

// Which image of the ring a slab's image planes go to (slab k: k % 2), and
// what is known of the work on it: the upload that last filled it (on the
// transfer queue) and the last extraction that read it (on the main queue).
struct RingSlot {
    std::unique_ptr<GpuVolume> image;
    // Staging piece p -> the image's planes, on the transfer queue, one graph
    // a piece, compiled once a first plane written (the planes below: the overlap copy's).
    std::vector<std::unique_ptr<RenderGraph>> uploads;
    uint32_t uploadFirstPlane = 0;
    // The slab before's shared planes into this image (main queue, before
    // the extraction), compiled once a {first plane there, planes}.
    std::unique_ptr<RenderGraph> overlap;
    std::pair<uint32_t, uint32_t> overlapCopy{0, 0};
    uint64_t uploaded = 0;         // transfer timeline: the last upload into it is done
    uint64_t lastRead = 0;         // main timeline: the image's readers are done, it may be refilled
    SlabStats pending;             // the read's times, for the slab's stats
};

// Staging pieces imported at once: the driver pins each range on the
// thread that imports it.
constexpr unsigned kImportThreads = 4;

// Staging pieces of about this size: the first upload waits for the first
// piece alone; a read of the next slab's piece has the uploads of the other
// pieces to finish in (a source's read spreads over every core, a call a piece).
constexpr uint64_t kStagingPieceBytes = uint64_t(128) << 20;

class Streamer {
public:
    Streamer(Context& context, VolumeSource& source, float iso, const ExtractOptions& options,
             const StreamOptions& stream, MeshSink& sink)
        : context_(context), source_(source), iso_(iso), stream_(stream), grid_(source.grid()),
          transfer_(context, QueueRole::Transfer), compute_(context, QueueRole::Main),
          readBack_(context, compute_, sink, report_.slabs, stream.importReadBack)
    {
        budget_ = stream.deviceBudget ? stream.deviceBudget : context.allocator().deviceBudgetBytes();
        method_ = createSlabMethod(context, grid_, options, budget_);
        nz_ = grid_.dims[2];
        if (grid_.dims[0] < 2 || grid_.dims[1] < 2 || nz_ < 2)
            fail("'" + grid_.source + "': streamed extraction needs at least 2 samples along each axis");
        if (uint64_t(grid_.dims[0]) * grid_.dims[1] * 2 > (uint64_t(1) << 31))
            fail("'" + grid_.source + "': planes of " + std::to_string(grid_.dims[0]) + "x" +
                 std::to_string(grid_.dims[1]) + " samples are too large to weld (edge codes hold 2^31 edges a plane)");
        // Layers asked for are given where the budget allows, whatever the image's size.
        planned_ = planSlabLayers(*method_, grid_, budget_, stream.maxSlabLayers == 0);
        if (stream.maxSlabLayers)
            planned_ = std::min(planned_, stream.maxSlabLayers);
        texelBytes_ = method_->texelBytes();
        converted_ = method_->converted();
        imagePlanes_ = std::min(planned_ + 3, nz_);
        // Until a graph says: the transients streamSlabBytes counts.
        transientReserve_ = method_->transientBytes(planned_);
        importStaging_ = stagingImportWanted() && canImportHostMemory(context);
        uint64_t pieceBytes = stream.stagingPieceBytes ? stream.stagingPieceBytes : kStagingPieceBytes;
        piecePlanes_ = uint32_t(std::clamp<uint64_t>(pieceBytes / stagingPlaneBytes(), 1, imagePlanes_));
        pieceCount_ = (imagePlanes_ + piecePlanes_ - 1) / piecePlanes_;
        report_.startup.constructed = msSince(start_);
    }

    // The pipeline, per slab k in ring slot k % 2: the planes it shares
    // with slab k-1 copied from slot (k-1) % 2's image, then its extraction,
    // are submitted (waiting on the GPU for its upload), then slab k+1's
    // upload piece by piece as each is read (waiting on the GPU for that
    // copy, which last read that slot's image), and after each piece's
    // upload the read of slab k+2's planes into that piece (a thread of its
    // own, once the upload is done); only then does the host wait, for slab
    // k's extraction, to read its mesh back.
    ~Streamer()
    {
        // After an error, welds and reads may still run. A future's
        // destructor need not wait for its thread: the next read's thread
        // holds a copy of it (its `before`).
        readBack_.waitAll();
        for (const auto& read : reads_)
            if (read.valid())
                read.wait();
        if (staging_.ready.valid())
            staging_.ready.wait();
        // Each queue's submissions wait on the other's semaphore: all of
        // them done before either queue (and anything they use) goes, also
        // after an error.
        try {
            compute_.waitIdle();
            transfer_.waitIdle();
        } catch (...) {
            vkDeviceWaitIdle(context_.device());
        }
    }

    StreamReport run()
    {
        Allocator& allocator = context_.allocator();
        allocator.resetPeak();
        report_.method = method_->name();
        report_.device = context_.info().name;
        report_.subgroupSize = context_.info().subgroupSize;
        report_.deviceBudget = budget_;
        report_.plannedCellLayers = planned_;
        report_.volumeBytes = grid_.byteSize();
        report_.transferQueue = context_.hasDedicatedTransferQueue();
        report_.stagingBytes = stagingPlaneBytes() * imagePlanes_;
        report_.stagingPieces = pieceCount_;
        progress(0);

        windows_.push_back(slabWindow(nz_, 0, std::min(planned_, nz_ - 1)));
        while (auto next = nextWindow(windows_.back()))
            windows_.push_back(*next);
        Clock::time_point firstStart = Clock::now();
        // Pinning host memory is slow (the staging pinned at ~9 GB/s on the
        // H200's host): on a thread of its own, in pieces; the first slab's
        // read fills each piece once it is imported, and each is uploaded
        // once read, while the main thread makes the images and extractors.
        createPieces();
        reads_.resize(pieceCount_);
        staging_.ready = std::async(std::launch::async, [this] { createStaging(); }).share();
        for (uint32_t p = 0; p < pieceCount_; ++p)
            startRead(0, p);
        countersHost_ = allocator.createBuffer(sizeof(GpuMeshCounters), VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                               MemoryUsage::Readback, "mesh counters read-back");
        createImages();
        report_.startup.images = msSince(start_);
        // The first two slabs' extractors (their pipelines: compiled on a
        // cold cache) and the first slab's mesh and graph, made while the
        // first slab's later pieces are pinned and read (the upload needs
        // none of them): made after the first slab's upload, they held back
        // the second slab's upload by 19-43 ms (docs/BENCHMARKS.md, call F).
        std::deque<std::function<void()>> setup;
        setup.push_back([this] { extractorFor(windows_[0].gridPlanes(), 0); });
        if (windows_.size() > 1)
            setup.push_back([this] { extractorFor(windows_[1].gridPlanes(), 1); });
        setup.push_back([this] { prepareFirstExtraction(); });
        double firstWaitMs = uploadSlab(0, &setup);
        report_.startup.firstRead = msSince(start_);
        for (; !setup.empty(); setup.pop_front())
            setup.front()(); // what the reads left no time for
        report_.startup.extractors = msSince(start_);
        double firstMs = msSince(firstStart); // slab 0's turn began here
        for (uint32_t k = 0; k < windows_.size(); ++k) {
            uint32_t slot = k % 2;
            const SlabWindow& w = windows_[k];
            SlabStats stats = slots_[slot].pending;
            stats.firstPlane = w.z0;
            Clock::time_point slabStart = Clock::now();
            if (k == 0) {
                stats.waitMs = firstWaitMs;
                stats.wallMs = firstMs;
            }
            uint64_t extracted = submitExtraction(w, slot, true, stats, k > 0 ? &windows_[k - 1] : nullptr);
            if (k + 1 < windows_.size())
                stats.waitMs += uploadSlab(k + 1); // in this slab's turn
            finishWindow(w, slot, extracted, stats);
            stats.wallMs += msSince(slabStart);
            report_.slabs.push_back(stats);
        }
        readBack_.finishAll();
        compute_.waitIdle();
        transfer_.waitIdle();
        staging_.ready.get(); // its error, where no read waited for it
        report_.stagingImported = true;
        for (const StagingPiece& piece : staging_.pieces)
            report_.stagingImported &= piece.imported;
        report_.readBackImported = readBack_.imported();
        report_.readBackSlots = readBack_.slotCount();
        report_.readBackOnDevice = readBack_.onDevice();
        report_.vertexCount = readBack_.welder().vertexCount();
        report_.faceCount = readBack_.welder().triangleCount();
        report_.peakDeviceBytes = allocator.peakDeviceBytes();
        report_.wallMs = msSince(start_);
        return report_;
    }

private:
    uint64_t planeTexels() const { return uint64_t(grid_.dims[0]) * grid_.dims[1]; }

    // The planes copied from the slab before; none where planes are not
    // whole words: a transfer-only queue copies from 4-byte buffer offsets only.
    uint32_t reusedPlanes(const SlabWindow& w) const { return stagingPlaneBytes() % 4 == 0 ? sharedPlanes(w) : 0; }
    uint64_t stagingPlaneBytes() const { return planeTexels() * texelBytes_; }

    // Bytes between the starts of two pieces in a slot's host pages: each
    // starts where the device imports host memory from.
    uint64_t pieceStride() const
    {
        uint64_t alignment = hostImportAlignment(context_);
        return (piecePlanes_ * stagingPlaneBytes() + alignment - 1) / alignment * alignment;
    }

    // The staging's pieces, not yet made (their planes only), on the main
    // thread before any thread reads them.
    void createPieces()
    {
        staging_.pieces = std::vector<StagingPiece>(pieceCount_);
        staging_.freeAfter.assign(pieceCount_, 0);
        for (uint32_t p = 0; p < pieceCount_; ++p) {
            staging_.pieces[p].firstPlane = p * piecePlanes_;
            staging_.pieces[p].planes = std::min(piecePlanes_, imagePlanes_ - p * piecePlanes_);
        }
        if (converted_)
            staging_.raw.resize(size_t(planeTexels() * scalarSize(grid_.type) * piecePlanes_));
    }

    // The staging (a thread of its own): its host pages mapped, then its
    // pieces made present (on every core) and imported a few at a time, so
    // pieces are pinned while later ones are made present (the first piece
    // alone first: the first read and upload wait for it); a piece whose
    // import fails (or every piece, without import) is the driver's pinned
    // allocation. Every piece's `made` is set, with its error where it has
    // one; the first error is rethrown.
    void createStaging()
    {
        StagingRing& staging = staging_;
        Clock::time_point stagingStart = Clock::now();
        std::exception_ptr error;
        std::mutex errorMutex;
        try {
            uint64_t stride = importStaging_ ? pieceStride() : 0;
            if (importStaging_) {
                try {
                    staging.pages =
                        mapHostPages(stride * pieceCount_, hostImportAlignment(context_), "slab staging", false);
                    report_.startup.stagingPages[0] = msSince(start_);
                } catch (const Error&) {
                    // A faster start only: the driver's pinned memory does the same.
                }
            }
            if (staging.pages.data)
                populatePages(staging.pages.data, stride); // the first piece alone: the first read waits for it
            parallelFor(pieceCount_, std::min(kImportThreads, pieceCount_), [&](uint64_t p) {
                StagingPiece& piece = staging.pieces[p];
                uint64_t bytes = piece.planes * stagingPlaneBytes();
                try {
                    if (staging.pages.data) {
                        try {
                            std::byte* data = staging.pages.data + p * stride;
                            if (p > 0)
                                populatePages(data, stride);
                            piece.buffer = importHostRange(context_, data, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                                           "slab staging");
                            piece.data = data;
                            piece.imported = true;
                        } catch (const Error&) {
                            // As above: this piece pinned by the driver.
                        }
                    }
                    if (!piece.data) {
                        std::lock_guard lock(allocateMutex_);
                        piece.buffer = context_.allocator().createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                                                         MemoryUsage::Upload, "slab staging");
                        piece.data = static_cast<std::byte*>(piece.buffer.mapped);
                    }
                    if (p == 0)
                        report_.startup.firstPieceReady = msSince(start_);
                    piece.made.set_value();
                } catch (...) {
                    std::lock_guard lock(errorMutex);
                    if (!error)
                        error = std::current_exception();
                    piece.made.set_exception(std::current_exception());
                }
            });
        } catch (...) {
            // No waiter may wait for ever: whatever is not yet set fails too.
            std::exception_ptr here = std::current_exception();
            auto failIfUnset = [&](std::promise<void>& promise) {
                try {
                    promise.set_exception(here);
                } catch (const std::future_error&) {
                    // already set
                }
            };
            for (StagingPiece& piece : staging.pieces)
                failIfUnset(piece.made);
            if (!error)
                error = here;
        }
        report_.stagingMs[0] = msSince(stagingStart);
        report_.startup.slot0Ready = msSince(start_);
        if (error)
            std::rethrow_exception(error);
    }

    // Plane `z` of the staging (its piece made).
    std::byte* stagingPlane(uint32_t z) const
    {
        const StagingPiece& piece = staging_.pieces[z / piecePlanes_];
        return piece.data + uint64_t(z - piece.firstPlane) * stagingPlaneBytes();
    }

    std::optional<SlabWindow> nextWindow(const SlabWindow& w) const
    {
        if (w.z1 + 1 >= nz_)
            return std::nullopt;
        return slabWindow(nz_, w.z1, std::min(planned_, nz_ - 1 - w.z1));
    }

    void progress(uint64_t planesDone)
    {
        if (stream_.progress)
            stream_.progress(ProgressStep{progressWhat_, planesDone, nz_, "planes", report_.bytesRead});
    }

    // Reads the window's image planes that staging piece p holds into it
    // (converted to float where the image is), but those the overlap copy
    // gives, and fills its planes past the window's with a copy of the
    // window's last (an earlier piece's or its own): past the volume's end
    // that is the in-core image's clamp-to-edge, and no texel the filter may
    // touch is left undefined. Returns milliseconds.
    double readPiece(const SlabWindow& w, uint32_t p)
    {
        Clock::time_point start = Clock::now();
        const StagingPiece& piece = staging_.pieces[p];
        uint64_t planeBytes = source_.planeBytes();
        uint32_t planes = w.imagePlanes();
        uint32_t begin = std::max(piece.firstPlane, reusedPlanes(w)); // the planes before: the overlap copy's
        uint32_t end = std::min(piece.firstPlane + piece.planes, planes);
        if (begin < end) {
            if (converted_) {
                std::byte* raw = staging_.raw.data();
                source_.readPlanes(w.firstImagePlane() + begin, end - begin, raw);
                uint64_t texels = planeTexels();
                uint64_t part = std::min<uint64_t>(texels, uint64_t(1) << 20);
                uint64_t perPlane = (texels + part - 1) / part;
                parallelFor((end - begin) * perPlane, hostThreads(), [&](uint64_t item) {
                    uint32_t z = begin + uint32_t(item / perPlane);
                    auto* plane = reinterpret_cast<float*>(stagingPlane(z));
                    uint64_t from = item % perPlane * part, to = std::min(texels, from + part);
                    for (uint64_t i = from; i < to; ++i)
                        plane[i] = sampleValue(raw, grid_.type, (z - begin) * texels + i);
                });
            } else {
                source_.readPlanes(w.firstImagePlane() + begin, end - begin, stagingPlane(begin));
            }
            bytesReadPending_ += planeBytes * (end - begin);
        }
        // On every core: for the last slab these copies can be most of its image.
        uint32_t fill = std::max(piece.firstPlane, planes);
        if (fill < piece.firstPlane + piece.planes)
            parallelFor(piece.firstPlane + piece.planes - fill, hostThreads(), [&](uint64_t i) {
                std::memcpy(stagingPlane(fill + uint32_t(i)), stagingPlane(planes - 1), stagingPlaneBytes());
            });
        return msSince(start);
    }

    // Slab k's planes into staging piece p on a thread of its own, once the
    // piece is made and its last upload done, and the read before it (slab
    // by slab, piece by piece) has ended: one read at a time, on every core.
    void startRead(uint32_t k, uint32_t p)
    {
        const SlabWindow w = windows_[k];
        uint64_t uploaded = staging_.freeAfter[p];
        // The read started before this one: the previous piece's (slab k-1's last piece's for the first).
        std::shared_future<std::pair<double, double>> before = reads_[(p + pieceCount_ - 1) % pieceCount_];
        std::shared_future<void> made = staging_.pieces[p].ready;
        reads_[p] = std::async(std::launch::async, [this, w, p, uploaded, before, made] {
                        Clock::time_point start = Clock::now();
                        if (before.valid())
                            before.wait(); // its error is its own piece's
                        made.get();        // rethrows the piece's error
                        transfer_.wait(uploaded);
                        double waitedMs = msSince(start);
                        HostThreadLimit limit(readThreads());
                        UseThreadPool pool(readPool_);
                        return std::pair(readPiece(w, p), waitedMs);
                    }).share();
    }

    // Uploads slab k piece by piece as each piece's read ends, and after
    // each upload starts the read of slab k + 1's planes into that piece;
    // the reads' times go to slab k's stats. `setup`'s steps run, one at a
    // time, while a piece after the first is still read. Returns how long
    // the main thread waited for the reads.
    double uploadSlab(uint32_t k, std::deque<std::function<void()>>* setup = nullptr)
    {
        double waitedMs = 0;
        SlabStats& stats = slots_[k % 2].pending;
        stats = SlabStats{};
        for (uint32_t p = 0; p < pieceCount_; ++p) {
            while (p > 0 && setup && !setup->empty() &&
                   reads_[p].wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
                setup->front()();
                setup->pop_front();
            }
            Clock::time_point waitStart = Clock::now();
            auto [readMs, stagingWaitMs] = reads_[p].get();
            waitedMs += msSince(waitStart);
            stats.readMs += readMs;
            stats.stagingWaitMs += stagingWaitMs;
            submitUpload(k, p);
            if (k == 0 && p == 0)
                report_.firstUploadMs = msSince(start_);
            if (k + 1 < windows_.size())
                startRead(k + 1, p);
        }
        return waitedMs;
    }

    // The ring's two images, left unwritten: every slab's upload writes all
    // of its image, the first one's too.
    void createImages()
    {
        Volume image = grid_;
        image.dims[2] = imagePlanes_;
        image.data.clear();
        for (RingSlot& slot : slots_)
            slot.image = std::make_unique<GpuVolume>(context_, image, method_->volumeUsage(), nullptr);
    }

    // The graph uploading staging piece p into the slot's image from plane
    // `firstPlane` on (none where the piece lies below it), compiled once a
    // slot, piece and first plane.
    RenderGraph* uploadGraph(uint32_t index, uint32_t p, uint32_t firstPlane)
    {
        RingSlot& slot = slots_[index];
        const StagingPiece& piece = staging_.pieces[p];
        if (piece.firstPlane + piece.planes <= firstPlane)
            return nullptr;
        if (slot.uploads.empty() || slot.uploadFirstPlane != firstPlane) {
            // Their last uploads are done: the host waited for the extraction after them.
            slot.uploads.clear();
            slot.uploads.resize(pieceCount_);
            slot.uploadFirstPlane = firstPlane;
        }
        std::unique_ptr<RenderGraph>& graph = slot.uploads[p];
        if (!graph) {
            SlabUploadPart part;
            part.first = piece.firstPlane <= firstPlane; // the first piece with planes to write
            part.last = p + 1 == pieceCount_;
            graph = std::make_unique<RenderGraph>(context_, QueueRole::Transfer);
            method_->addUploadPass(*graph, *slot.image, {{piece.buffer.buffer, piece.firstPlane, piece.planes}},
                                   imagePlanes_, context_.queueFamily(), firstPlane, part);
            graph->compile();
            if (index == 0 && p == 0)
                report_.startup.uploadGraph = msSince(start_);
        }
        return graph.get();
    }

    // Staging piece p's planes of slab k into its slot's image on the
    // transfer queue, after the extractions that read the image before
    // (their values on the main queue's timeline).
    void submitUpload(uint32_t k, uint32_t p)
    {
        RingSlot& slot = slots_[k % 2];
        uint32_t firstPlane = reusedPlanes(windows_[k]);
        RenderGraph* graph = uploadGraph(k % 2, p, firstPlane);
        if (!graph)
            return;
        std::vector<QueueWait> waits;
        if (slot.lastRead)
            waits.push_back(compute_.after(slot.lastRead));
        slot.uploaded = transfer_.submit({graph}, waits);
        staging_.freeAfter[p] = slot.uploaded;
        const StagingPiece& piece = staging_.pieces[p];
        report_.bytesUploaded +=
            uint64_t(piece.firstPlane + piece.planes - std::max(piece.firstPlane, firstPlane)) * stagingPlaneBytes();
    }

    struct SlabExtractor {
        std::unique_ptr<Volume> grid;
        std::unique_ptr<GpuExtractor> extractor;
        // The extraction of a whole slab just uploaded (its image acquired
        // from the transfer queue): compiled once, recorded for every slab of
        // this size in this slot until a mesh or list grows.
        std::unique_ptr<RenderGraph> graph;
        bool graphAcquires = true; // else the slab arrives by its overlap copy's graph, which acquires it
        ResourceId codes = kNoResource;
    };

    SlabExtractor& extractorFor(uint32_t gridPlanes, uint32_t slot)
    {
        uint64_t key = uint64_t(gridPlanes) * 2 + slot;
        auto found = extractors_.find(key);
        if (found != extractors_.end())
            return found->second;
        // Two at a time, as streamSlabBytes counts them: the planned size in
        // both slots, the usual case; another size (the last slab, split
        // parts) takes the place of this slot's, else the other's. Nothing
        // in flight uses them: the host waited for every extraction before.
        if (extractors_.size() >= 2) {
            auto same = std::find_if(extractors_.begin(), extractors_.end(),
                                     [&](const auto& entry) { return entry.first % 2 == slot; });
            extractors_.erase(same != extractors_.end() ? same : extractors_.begin());
        }
        SlabExtractor slab;
        slab.grid = std::make_unique<Volume>(grid_);
        slab.grid->dims[2] = gridPlanes;
        slab.grid->stats = {};
        FieldSource field{slab.grid.get(), slots_[slot].image.get()};
        slab.extractor = createGpuExtractor(context_, method_->name(), field, method_->extractOptions());
        return extractors_.emplace(key, std::move(slab)).first->second;
    }

    // The slab's cached extraction graph for a whole slab, made again where
    // it acquired the image and now must not (an overlap copy does), or the
    // other way round.
    RenderGraph& cachedExtraction(SlabExtractor& slab, const SlabWindow& w, uint32_t slot, bool acquires)
    {
        if (slab.graph && slab.graphAcquires != acquires)
            slab.graph.reset();
        if (!slab.graph) {
            slab.graph = buildExtraction(slab, w, slot, acquires, slab.codes);
            slab.graphAcquires = acquires;
        }
        return *slab.graph;
    }

    // The first slab's mesh and extraction graph, which submitExtraction
    // then finds made (its image comes from its upload: no overlap copy).
    void prepareFirstExtraction()
    {
        const SlabWindow& w = windows_[0];
        SlabExtractor& slab = extractorFor(w.gridPlanes(), 0);
        ensureMesh(*slab.extractor, w);
        cachedExtraction(slab, w, 0, true);
    }

    // Cached graphs import the mesh and the list's size: made again after either grows.
    void forgetGraphs()
    {
        for (auto& [key, slab] : extractors_)
            slab.graph.reset();
    }

    // Device bytes held now without the mesh, its edge codes and their
    // read-back buffer (device memory where the device maps its own).
    uint64_t heldWithoutMesh() const
    {
        return context_.allocator().currentDeviceBytes() - mesh_.deviceBytes() - codes_.allocated -
               readBack_.deviceBytes();
    }

    // A mesh (and edge codes) for the counts, if the budget holds it beside
    // the graph's transients (as large as the largest graph's so far) and,
    // where the device maps its own memory for the host (lavapipe), the
    // read-back buffer that takes a copy of it.
    bool allocateMesh(uint64_t vertices, uint64_t faces)
    {
        uint64_t bytes = vertices * (sizeof(GpuMeshVertex) + 4) + faces * 12 + 1024;
        uint64_t readBack = readBack_.onDevice() ? MeshReadBackLayout{vertices, faces}.bytes() : 0;
        if (heldWithoutMesh() + transientReserve_ + readBack + bytes > budget_)
            return false;
        readBack_.releaseForNewMesh();
        mesh_ = GpuMesh{};
        codes_ = Buffer{};
        forgetGraphs();
        mesh_ = createGpuMesh(context_, vertices, faces);
        codes_ = context_.allocator().createBuffer(uint64_t(mesh_.vertexCapacity) * 4, kCodeUsage,
                                                   MemoryUsage::DeviceLocal, "vertex edge codes");
        return true;
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

    // The extraction graph of window `w` (whole slab or a part) in `slot`:
    // the method's passes into the mesh and the counters' copy to the host.
    // `acquire`: the image comes from the slab's upload on the transfer queue.
    std::unique_ptr<RenderGraph> buildExtraction(SlabExtractor& slab, const SlabWindow& w, uint32_t slot, bool acquire,
                                                 ResourceId& codes)
    {
        auto graph = std::make_unique<RenderGraph>(context_);
        graph->setImportsFollowEarlierWork(); // the slab before may still be read back
        MeshBuffers buffers = importMesh(*graph, mesh_);
        codes = graph->importBuffer("vertex edge codes", codes_.buffer, {},
                                    ResourceState{VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT});
        slab.extractor->placeSlab({int32_t(w.z0), w.below, nz_, codes});
        slab.extractor->addToGraph(*graph, buffers, iso_);
        addCountersReadBackPass(*graph, buffers.counters, countersHost_);
        if (acquire)
            method_->acquireAfterUpload(*graph, *slots_[slot].image);
        graph->compile();
        transientReserve_ = std::max(transientReserve_, graph->transientBytes());
        return graph;
    }

    // Submits the extraction of `w` from the slot's image: with `acquire`,
    // the whole slab after its upload (a cached graph); else a part of it,
    // or the slab again after an overflow (the image already here).
    // A whole slab after the first (`previous`: the slab before, in the
    // other slot) gets its shared planes first, by a copy from the other
    // slot's image in a submission of its own, which acquires the image and
    // which alone the other slot's next upload waits for.
    uint64_t submitExtraction(const SlabWindow& w, uint32_t slot, bool acquire, SlabStats& stats,
                              const SlabWindow* previous = nullptr)
    {
        Clock::time_point setupStart = Clock::now();
        SlabExtractor& slab = extractorFor(w.gridPlanes(), slot);
        slab.extractor->volumeChanged();
        ensureMesh(*slab.extractor, w);
        RenderGraph* graph = nullptr;
        ResourceId codes = kNoResource;
        // At most two graphs' transients at once, as streamSlabBytes counts:
        // a part's graph (done: the host waited for it) goes before a slab's,
        // and this extractor's own slab graph before a part's.
        oneOffGraph_.reset();
        uint32_t reused = acquire ? reusedPlanes(w) : 0;
        if (reused && !previous)
            fail("a streamed slab after the first without the slab before (an engine bug)");
        if (acquire) {
            graph = &cachedExtraction(slab, w, slot, reused == 0);
            codes = slab.codes;
        } else {
            slab.graph.reset();
            oneOffGraph_ = buildExtraction(slab, w, slot, acquire, codes);
            graph = oneOffGraph_.get();
        }
        // Read when the graph records: where this slab lies.
        slab.extractor->placeSlab({int32_t(w.z0), w.below, nz_, codes});
        std::vector<QueueWait> waits;
        if (acquire)
            waits.push_back(transfer_.after(slots_[slot].uploaded));
        submittedOverlap_ = nullptr;
        if (reused) {
            RingSlot& other = slots_[slot ^ 1u];
            std::pair<uint32_t, uint32_t> copy{w.firstImagePlane() - previous->firstImagePlane(), reused};
            RingSlot& here = slots_[slot];
            if (here.overlap && here.overlapCopy != copy)
                here.overlap.reset(); // its last copy is done: the host waited for the extraction after it
            if (!here.overlap) {
                here.overlap = std::make_unique<RenderGraph>(context_);
                method_->addOverlapCopyPass(*here.overlap, *other.image, copy.first, *here.image, copy.second);
                here.overlap->compile();
                here.overlapCopy = copy;
            }
            // The other image's next upload waits for this copy only, not for the extraction.
            other.lastRead = compute_.submit({here.overlap.get()}, waits);
            waits.clear();
            submittedOverlap_ = here.overlap.get();
            report_.overlapBytesCopied += uint64_t(reused) * planeTexels() * texelBytes_;
        }
        stats.setupMs += msSince(setupStart); // the overlap graph's compile included
        uint64_t value = compute_.submit({graph}, waits);
        slots_[slot].lastRead = value;
        submittedGraph_ = graph;
        return value;
    }

    // Waits for the extraction submitted for window `w` (value `extracted`)
    // and reads its mesh back; where a list or the mesh overflowed, extracts
    // again, and where the mesh does not fit the budget, the window's first
    // half (again as needed), then the rest, from the image in the slot.
    void finishWindow(const SlabWindow& w, uint32_t slot, uint64_t extracted, SlabStats& stats)
    {
        SlabWindow part = w;
        bool first = true;
        uint32_t retries = 0; // of one part after its buffers grew
        for (;;) {
            Clock::time_point waitStart = Clock::now();
            compute_.wait(extracted);
            stats.gpuWaitMs += msSince(waitStart);
            Clock::time_point teardownStart = Clock::now();
            for (auto& [name, ms] : submittedGraph_->passTimings())
                if (name != "mesh counters read-back")
                    stats.extractMs += ms;
            if (first) {
                std::tie(stats.extractStartMs, stats.extractEndMs) = submittedGraph_->frameSpan();
                bool spanned = false;
                for (const std::unique_ptr<RenderGraph>& upload : slots_[slot].uploads) {
                    if (!upload)
                        continue; // a piece below the planes written
                    for (auto& [name, ms] : upload->passTimings())
                        stats.uploadMs += ms;
                    auto [from, to] = upload->frameSpan();
                    stats.uploadStartMs = spanned ? std::min(stats.uploadStartMs, from) : from;
                    stats.uploadEndMs = spanned ? std::max(stats.uploadEndMs, to) : to;
                    spanned = true;
                }
                if (submittedOverlap_)
                    for (auto& [name, ms] : submittedOverlap_->passTimings())
                        stats.overlapCopyMs += ms;
                first = false;
            }
            GpuMeshCounters counters{};
            std::memcpy(&counters, countersHost_.mapped, sizeof(counters));
            stats.teardownMs += msSince(teardownStart);
            if (!counters.overflow) {
                downloadSlab(part, stats, counters);
                if (part.z1 == w.z1)
                    break;
                // The rest of the window, from the same image.
                part = subWindow(w, part.z1, w.z1);
                retries = 0;
            } else {
                if (++retries > 4)
                    fail("a streamed slab overflowed its buffers again after growing them (an engine bug)");
                ++report_.overflowRetries;
                SlabExtractor& slab = extractorFor(part.gridPlanes(), slot);
                bool listGrew = slab.extractor->growAfterOverflow();
                if (listGrew)
                    forgetGraphs();
                if (counters.vertexCount > mesh_.vertexCapacity || counters.faceCount > mesh_.faceCapacity) {
                    uint64_t vertices = std::max<uint64_t>(counters.vertexCount, mesh_.vertexCapacity);
                    uint64_t faces = std::max<uint64_t>(counters.faceCount, mesh_.faceCapacity);
                    if (!allocateMesh(vertices, faces)) {
                        if (part.z1 - part.z0 == 1)
                            failBudget(part, vertices, faces);
                        ++report_.slabsSplit;
                        part = subWindow(w, part.z0, part.z0 + (part.z1 - part.z0) / 2);
                        retries = 0;
                    }
                } else if (!listGrew) {
                    fail("a streamed slab reported an overflow that no buffer explains (an engine bug)");
                }
            }
            extracted = submitExtraction(part, slot, false, stats);
        }
        stats.cellLayers = w.z1 - w.z0;
    }

    [[noreturn]] void failBudget(const SlabWindow& w, uint64_t vertices, uint64_t faces)
    {
        fail("streaming '" + grid_.source + "': the mesh of cell layer " + std::to_string(w.z0) + " alone (" +
             std::to_string(vertices) + " vertices, " + std::to_string(faces) + " triangles) needs " +
             formatBytes(vertices * 28 + faces * 12) + " beside the slab's " + formatBytes(heldWithoutMesh()) +
             ", more than the device budget of " + formatBytes(budget_) + ": give a larger --device-budget");
    }

    // The part's mesh to the host and on to the weld (slab_read_back.h),
    // while the next slabs upload and extract.
    void downloadSlab(const SlabWindow& w, SlabStats& stats, const GpuMeshCounters& counters)
    {
        report_.bytesRead += bytesReadPending_.exchange(0);
        readBack_.download(mesh_, codes_, counters, double(w.z1) / double(nz_ - 1), stats);
        progress(w.z1 + 1 == nz_ ? nz_ : w.z1);
    }

    Clock::time_point start_ = Clock::now(); // first: the constructor's work is in the wall time
    Context& context_;
    VolumeSource& source_;
    float iso_;
    const StreamOptions& stream_;
    const Volume& grid_;
    std::string progressWhat_ = "extracting '" + grid_.source + "'";
    uint64_t budget_ = 0;
    std::unique_ptr<SlabMethod> method_;
    uint32_t nz_ = 0, planned_ = 0, imagePlanes_ = 0;
    uint32_t texelBytes_ = 1;
    bool converted_ = false;
    bool importStaging_ = false;
    uint32_t piecePlanes_ = 1, pieceCount_ = 1; // the staging's pieces
    std::mutex allocateMutex_;                  // pinned pieces allocated one at a time
    RingSlot slots_[2];
    std::map<uint64_t, SlabExtractor> extractors_;
    std::unique_ptr<RenderGraph> oneOffGraph_;
    RenderGraph* submittedGraph_ = nullptr;
    RenderGraph* submittedOverlap_ = nullptr; // the overlap copy before the last whole slab's extraction, if any
    GpuMesh mesh_;
    Buffer codes_;
    Buffer countersHost_;
    uint64_t transientReserve_ = 0;
    std::atomic<uint64_t> bytesReadPending_{0};
    StreamReport report_;
    StagingRing staging_; // after the report, which its thread writes
    std::vector<SlabWindow> windows_; // the slabs, in order
    GraphQueue transfer_;
    GraphQueue compute_;
    ThreadPool readPool_{readThreads() - 1}; // the reads' helpers: several reads a slab
    // The threads behind these futures: waited for in the destructor, before anything they use goes.
    std::vector<std::shared_future<std::pair<double, double>>> reads_; // a piece's read: {ms, ms waited before it}
    SlabReadBack readBack_; // last: destroyed first, its welds waited for before the rest goes
};

} // namespace

StreamReport extractStreamed(Context& context, VolumeSource& source, float iso, const ExtractOptions& options,
                             const StreamOptions& stream, MeshSink& sink)
{
    return Streamer(context, source, iso, options, stream, sink).run();
}

} // namespace isoscope
