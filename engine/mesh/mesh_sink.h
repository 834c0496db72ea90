#pragma once
// Where a mesh made part by part goes (streamed extraction,
// extract/stream/): vertices with their final numbers (counting on from
// those already added; a part's in one call or several), then triangles in
// those numbers, part after part.
// A sink keeps everything (MeshCollector) or writes it on
// (io/mesh_stream.h).
#include <cstdint>
#include <span>

#include "mesh/gpu_mesh.h"
#include "mesh/mesh.h"

namespace isoscope {

class MeshSink {
public:
    virtual ~MeshSink() = default;
    virtual void addVertices(std::span<const GpuMeshVertex> vertices) = 0;
    virtual void addTriangles(std::span<const uint32_t> indices) = 0;
    // A hint: the whole mesh will hold about this many vertices and
    // indices (extrapolated from the parts so far). Sinks may ignore it.
    virtual void expect(uint64_t /*vertices*/, uint64_t /*indices*/) {}
    // Room for the next `count` triangle indices in the sink's own memory,
    // or null where it has none (a file's writer): the caller writes them
    // there, then passes exactly that span to addTriangles, which takes it
    // without a copy. The slab weld renumbers a slab's triangles into it.
    virtual uint32_t* triangleRoom(size_t /*count*/) { return nullptr; }
};

// Keeps everything in a host Mesh. Its arrays start at 16x the first
// expected size and grow rarely since a growth copies them: early, to twice
// the expected size, once that alone outgrows
// the capacity while they hold at most an eighth of it; else when full, to
// 4x or twice the expected size. The capacity is address space, its pages made
// present on every core just ahead of what is written
// (core/parallel_for.h populatePages), a large part's values copied on every core
// (on the caller's ThreadPool where it uses one: the slab weld's); triangles
// written into the room it lends (triangleRoom) need no copy.
class MeshCollector final : public MeshSink {
public:
    void addVertices(std::span<const GpuMeshVertex> vertices) override;
    void addTriangles(std::span<const uint32_t> indices) override;
    void expect(uint64_t vertices, uint64_t indices) override;
    uint32_t* triangleRoom(size_t count) override;
    Mesh& mesh() { return mesh_; }
    // The bytes of the arrays' pages made present so far: what is written and,
    // in each array, as much again ahead of it (at least 256 KiB, at most 64 MiB),
    // whatever the capacity.
    uint64_t presentBytes() const;

private:
    Mesh mesh_;
    uint64_t expectedVertices_ = 0, expectedIndices_ = 0;
    size_t presentBytes_[3] = {0, 0, 0}; // positions, normals, indices
    size_t lentAt_ = 0, lentCount_ = 0;   // the indices' tail handed out by triangleRoom, not yet added
};

} // namespace isoscope
