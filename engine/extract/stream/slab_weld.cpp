#include "extract/stream/slab_weld.h"

#include <algorithm>
#include <string>

#include "core/error.h"
#include "core/parallel_for.h"

namespace isoscope {

void SlabWelder::addSlab(std::span<const GpuMeshVertex> vertices, std::span<const uint32_t> indices,
                         std::span<const uint32_t> edgeCodes, double volumeDone)
{
    if (edgeCodes.size() != vertices.size() || indices.size() % 3)
        fail("a streamed slab's mesh came back with " + std::to_string(vertices.size()) + " vertices, " +
             std::to_string(edgeCodes.size()) + " edge codes and " + std::to_string(indices.size()) +
             " indices (an engine bug)");
    if (vertexCount_ + vertices.size() > UINT32_MAX)
        fail("the streamed mesh passes 2^32 vertices, more than 32-bit indices number");
    kept_.clear();
    auto onFirstPlane = [&](size_t v) { return edgeCodes[v] != kNoEdgeCode && !(edgeCodes[v] & kLastPlaneBit); };
    auto onLastPlane = [&](size_t v) { return edgeCodes[v] != kNoEdgeCode && (edgeCodes[v] & kLastPlaneBit); };
    // The vertices from `tail` on are all kept: they go to the sink from the
    // read-back as they are, numbered on from those before, only those
    // before through kept_ (the first plane's lie among the first block
    // layer's, at the start). One pass finds `tail` and sizes the map.
    size_t tail = 0, onLast = 0;
    for (size_t v = 0; v < vertices.size(); ++v) {
        if (onLastPlane(v))
            ++onLast;
        else if (onFirstPlane(v) && !first_)
            tail = v + 1;
    }
    nextLastPlane_.reset(onLast);
    numbers_.resize(tail);
    for (size_t v = 0; v < tail; ++v) {
        uint32_t code = edgeCodes[v];
        if (onFirstPlane(v)) {
            uint32_t number = lastPlane_.find(code);
            if (number == EdgeCodeMap::kMissing)
                fail("a streamed slab has a vertex on its first plane (edge code " + std::to_string(code) +
                     ") that the slab before did not make (an engine bug)");
            numbers_[v] = number;
            continue;
        }
        numbers_[v] = uint32_t(vertexCount_ + kept_.size());
        kept_.push_back(vertices[v]);
        if (onLastPlane(v))
            nextLastPlane_.insert(code & ~kLastPlaneBit, numbers_[v]);
    }
    // Vertex v from the tail on is number v + shift (mod 2^32: the sum stays below 2^32).
    uint32_t shift = uint32_t(vertexCount_ + kept_.size() - tail);
    for (size_t v = tail; v < vertices.size(); ++v)
        if (onLastPlane(v))
            nextLastPlane_.insert(edgeCodes[v] & ~kLastPlaneBit, uint32_t(v) + shift);
    triangles_.resize(indices.size());
    // Millions of indices a slab: renumbered on every core, the weld being
    // what the host does longest per slab.
    constexpr size_t piece = size_t(1) << 18;
    parallelFor((indices.size() + piece - 1) / piece, hostThreads(), [&](uint64_t item) {
        for (size_t i = item * piece; i < std::min(indices.size(), (item + 1) * piece); ++i) {
            uint32_t index = indices[i];
            if (index >= vertices.size())
                fail("a streamed slab's triangle names vertex " + std::to_string(index) + " of " +
                     std::to_string(vertices.size()) + " (an engine bug)");
            triangles_[i] = index < tail ? numbers_[index] : index + shift;
        }
    });
    size_t added = kept_.size() + (vertices.size() - tail);
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
    sink_.addVertices(kept_);
    sink_.addVertices(vertices.subspan(tail));
    sink_.addTriangles(triangles_);
    vertexCount_ += added;
    triangleCount_ += indices.size() / 3;
    lastPlane_.swap(nextLastPlane_);
    first_ = false;
}

} // namespace isoscope
