#pragma once
// One welded mesh from the meshes of consecutive z-slabs: each slab's
// extraction makes the vertices on both of its end planes, so the vertices
// on a plane two slabs share exist twice. The earlier slab's copies stay (its
// output can go on at once); the later slab's are dropped, its triangles
// pointed at the earlier copies by edge code (the x- or y-edge of the plane
// each lies on, which the block method's triangle pass writes per vertex:
// shaders/extract/block/block_common.glsl), and its other vertices renumbered
// after all earlier ones. The result is the whole volume's mesh, vertex for
// vertex, in another order.
#include <cstdint>
#include <span>
#include <vector>

#include "core/parallel_for.h"
#include "extract/stream/edge_code_map.h"
#include "mesh/mesh_sink.h"

namespace isoscope {

constexpr uint32_t kNoEdgeCode = 0xFFFFFFFFu;
constexpr uint32_t kLastPlaneBit = 1u << 31;

class SlabWelder {
public:
    explicit SlabWelder(MeshSink& sink);

    // The next slab's mesh (its triangles numbering its own vertices) and
    // each vertex's edge code. The triangles are renumbered into the room the
    // sink lends (MeshSink::triangleRoom: no copy after), else in place (the
    // read-back's memory, which the GPU is done with: no scratch array of
    // the densest slab's size to grow while the reads hold every core).
    // Throws Error where a vertex of the slab's first plane has no copy in
    // the previous slab's last plane (an engine bug: both extract every
    // crossed edge of the plane). `volumeDone`: the part of the volume's
    // cell layers up to this slab's end (0 < f <= 1), from which the sink
    // is told the whole mesh's likely size.
    void addSlab(std::span<const GpuMeshVertex> vertices, std::span<uint32_t> indices,
                 std::span<const uint32_t> edgeCodes, double volumeDone);

    uint64_t vertexCount() const { return vertexCount_; }
    // Of the last addSlab, the ms in the sink (its expectation and copies).
    double lastSinkMs() const { return lastSinkMs_; }
    uint64_t triangleCount() const { return triangleCount_; }

private:
    MeshSink& sink_;
    uint64_t vertexCount_ = 0, triangleCount_ = 0;
    bool first_ = true;
    double doneBefore_ = 0; // volumeDone of the slab before
    double lastSinkMs_ = 0;
    // The last slab's vertices on its last plane: edge code -> final number
    // (and the one being filled, swapped in at the slab's end).
    EdgeCodeMap lastPlane_, nextLastPlane_;
    std::vector<GpuMeshVertex> kept_;
    std::vector<uint32_t> numbers_;
    std::vector<size_t> pieceTail_, pieceCount_; // the parallel passes' per-piece results
    ThreadPool pool_; // the weld's passes and the sink's copies on every core, without thread starts
};

} // namespace isoscope
