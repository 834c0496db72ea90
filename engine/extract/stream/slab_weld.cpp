#include "extract/stream/slab_weld.h"

#include <algorithm>
#include <optional>
#include <string>

#include "core/error.h"
#include "core/stopwatch.h"

namespace isoscope {

namespace {

// A slab of this many vertices or more is welded on every core, in pieces:
// the 8 GiB gyroid file's slabs (2.2 M vertices) welded in 39-41 ms instead
// of 53-60. Smaller ones (Cayley's and the 96 GiB sphere's, 0.07-0.27 M)
// stay on this thread but for the renumbering, as before: there, waking
// helpers beside the reads' threads cost more than the work, and the welds
// were waited for (H100 calls B and C, docs/BENCHMARKS.md).
constexpr size_t kParallelVertices = size_t(1) << 20;
constexpr size_t kPiece = size_t(1) << 16;
constexpr size_t kIndexPiece = size_t(1) << 18;

size_t piecesOf(size_t count, size_t piece = kPiece)
{
    return (count + piece - 1) / piece;
}

} // namespace

SlabWelder::SlabWelder(MeshSink& sink) : sink_(sink), pool_(std::max(hostThreads(), 2u) - 1) {}

void SlabWelder::addSlab(std::span<const GpuMeshVertex> vertices, std::span<uint32_t> indices,
                         std::span<const uint32_t> edgeCodes, double volumeDone)
{
    if (edgeCodes.size() != vertices.size() || indices.size() % 3)
        fail("a streamed slab's mesh came back with " + std::to_string(vertices.size()) + " vertices, " +
             std::to_string(edgeCodes.size()) + " edge codes and " + std::to_string(indices.size()) +
             " indices (an engine bug)");
    if (vertexCount_ + vertices.size() > UINT32_MAX)
        fail("the streamed mesh passes 2^32 vertices, more than 32-bit indices number");
    // A large slab's passes and the sink's copies on workers kept for the weld.
    bool large = vertices.size() >= kParallelVertices;
    std::optional<UseThreadPool> useWorkers;
    if (large)
        useWorkers.emplace(pool_);
    unsigned threads = large ? pool_.workers() + 1 : 1;
    auto onFirstPlane = [&](size_t v) { return edgeCodes[v] != kNoEdgeCode && !(edgeCodes[v] & kLastPlaneBit); };
    auto onLastPlane = [&](size_t v) { return edgeCodes[v] != kNoEdgeCode && (edgeCodes[v] & kLastPlaneBit); };
    // The vertices from `tail` on are all kept: they go to the sink from the
    // read-back as they are, numbered on from those before, only those
    // before through kept_ (the first plane's lie among the first block
    // layer's, at the start). One pass finds `tail` and sizes the map.
    size_t pieces = piecesOf(vertices.size());
    pieceTail_.assign(pieces, 0);
    pieceCount_.assign(pieces, 0);
    parallelFor(pieces, threads, [&](uint64_t p) {
        size_t tail = 0, onLast = 0;
        for (size_t v = p * kPiece; v < std::min(vertices.size(), (p + 1) * kPiece); ++v) {
            if (onLastPlane(v))
                ++onLast;
            else if (onFirstPlane(v) && !first_)
                tail = v + 1;
        }
        pieceTail_[p] = tail;
        pieceCount_[p] = onLast;
    });
    size_t tail = 0, onLast = 0;
    for (size_t p = 0; p < pieces; ++p) {
        tail = std::max(tail, pieceTail_[p]);
        onLast += pieceCount_[p];
    }
    nextLastPlane_.reset(onLast);
    // The vertices before `tail` not on the first plane are kept, numbered
    // in order: each piece's first number from the counts of those before.
    size_t headPieces = piecesOf(tail);
    parallelFor(headPieces, threads, [&](uint64_t p) {
        size_t kept = 0;
        for (size_t v = p * kPiece; v < std::min(tail, (p + 1) * kPiece); ++v)
            kept += !onFirstPlane(v);
        pieceCount_[p] = kept;
    });
    size_t keptCount = 0;
    for (size_t p = 0; p < headPieces; ++p)
        keptCount = std::exchange(pieceCount_[p], keptCount) + keptCount;
    kept_.resize(keptCount);
    numbers_.resize(tail);
    parallelFor(headPieces, threads, [&](uint64_t p) {
        size_t k = pieceCount_[p];
        for (size_t v = p * kPiece; v < std::min(tail, (p + 1) * kPiece); ++v) {
            uint32_t code = edgeCodes[v];
            if (onFirstPlane(v)) {
                uint32_t number = lastPlane_.find(code);
                if (number == EdgeCodeMap::kMissing)
                    fail("a streamed slab has a vertex on its first plane (edge code " + std::to_string(code) +
                         ") that the slab before did not make (an engine bug)");
                numbers_[v] = number;
                continue;
            }
            numbers_[v] = uint32_t(vertexCount_ + k);
            kept_[k++] = vertices[v];
            if (onLastPlane(v))
                nextLastPlane_.insertConcurrent(code & ~kLastPlaneBit, numbers_[v]);
        }
    });
    // Vertex v from the tail on is number v + shift (mod 2^32: the sum stays below 2^32).
    uint32_t shift = uint32_t(vertexCount_ + keptCount - tail);
    parallelFor(pieces, threads, [&](uint64_t p) {
        for (size_t v = std::max(tail, p * kPiece); v < std::min(vertices.size(), (p + 1) * kPiece); ++v)
            if (onLastPlane(v))
                nextLastPlane_.insertConcurrent(edgeCodes[v] & ~kLastPlaneBit, uint32_t(v) + shift);
    });
    size_t added = keptCount + (vertices.size() - tail);
    if (volumeDone > 0) {
        // Two extrapolations, the larger a little over: the mesh so far over
        // the volume so far, and this slab's share over the rest (a surface
        // dense in the middle, as most are, makes the first too small there).
        // A growth of the sink's arrays late costs a copy of them.
        double done = std::min(volumeDone, 1.0), share = done - doneBefore_;
        auto expected = [&](uint64_t before, uint64_t slab) {
            double byAverage = double(before + slab) / done;
            double byLatest = share > 0 ? double(before + slab) + double(slab) * (1 - done) / share : 0;
            return uint64_t(1.05 * std::max(byAverage, byLatest));
        };
        sink_.expect(expected(vertexCount_, added), expected(triangleCount_ * 3, indices.size()));
        doneBefore_ = done;
    }
    // Renumbered into the sink's own memory where it lends it (no copy of
    // them after), else in place.
    uint32_t* renumbered = sink_.triangleRoom(indices.size());
    if (!renumbered)
        renumbered = indices.data();
    parallelFor(piecesOf(indices.size(), kIndexPiece), hostThreads(), [&](uint64_t item) {
        for (size_t i = item * kIndexPiece; i < std::min(indices.size(), (item + 1) * kIndexPiece); ++i) {
            uint32_t index = indices[i];
            if (index >= vertices.size())
                fail("a streamed slab's triangle names vertex " + std::to_string(index) + " of " +
                     std::to_string(vertices.size()) + " (an engine bug)");
            renumbered[i] = index < tail ? numbers_[index] : index + shift;
        }
    });
    Clock::time_point sinkStart = Clock::now();
    // A large slab's copies in the sink run on the weld's workers too (UseThreadPool above).
    sink_.addVertices(kept_);
    sink_.addVertices(vertices.subspan(tail));
    sink_.addTriangles({renumbered, indices.size()});
    lastSinkMs_ = msSince(sinkStart);
    vertexCount_ += added;
    triangleCount_ += indices.size() / 3;
    lastPlane_.swap(nextLastPlane_);
    first_ = false;
}

} // namespace isoscope
