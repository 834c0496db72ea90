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
    numbers_.resize(vertices.size());
    kept_.clear();
    std::unordered_map<uint32_t, uint32_t> lastPlane;
    for (size_t v = 0; v < vertices.size(); ++v) {
        uint32_t code = edgeCodes[v];
        bool onFirstPlane = code != kNoEdgeCode && !(code & kLastPlaneBit);
        if (onFirstPlane && !first_) {
            auto found = lastPlane_.find(code);
            if (found == lastPlane_.end())
                fail("a streamed slab has a vertex on its first plane (edge code " + std::to_string(code) +
                     ") that the slab before did not make (an engine bug)");
            numbers_[v] = found->second;
            continue;
        }
        numbers_[v] = uint32_t(vertexCount_ + kept_.size());
        kept_.push_back(vertices[v]);
        if (code != kNoEdgeCode && (code & kLastPlaneBit))
            lastPlane.emplace(code & ~kLastPlaneBit, numbers_[v]);
    }
    triangles_.resize(indices.size());
    // Millions of indices a slab: renumbered on every core, the weld being
    // what the host does longest per slab.
    constexpr size_t piece = size_t(1) << 18;
    parallelFor((indices.size() + piece - 1) / piece, hostThreads(), [&](uint64_t item) {
        for (size_t i = item * piece; i < std::min(indices.size(), (item + 1) * piece); ++i) {
            if (indices[i] >= vertices.size())
                fail("a streamed slab's triangle names vertex " + std::to_string(indices[i]) + " of " +
                     std::to_string(vertices.size()) + " (an engine bug)");
            triangles_[i] = numbers_[indices[i]];
        }
    });
    if (volumeDone > 0) {
        // A little over the extrapolation: one growth of the sink's arrays near the end costs a copy of them.
        double scale = 1.05 / std::min(volumeDone, 1.0);
        sink_.expect(uint64_t(double(vertexCount_ + kept_.size()) * scale),
                     uint64_t(double(triangleCount_ * 3 + indices.size()) * scale));
    }
    sink_.addVertices(kept_);
    sink_.addTriangles(triangles_);
    vertexCount_ += kept_.size();
    triangleCount_ += indices.size() / 3;
    lastPlane_ = std::move(lastPlane);
    first_ = false;
}

} // namespace isoscope
