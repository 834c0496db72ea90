#pragma once
// Where a mesh made part by part goes (streamed extraction,
// extract/stream/): vertices with their final numbers (counting on from
// those already added), then triangles in those numbers, part after part.
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
};

// Keeps everything in a host Mesh.
class MeshCollector final : public MeshSink {
public:
    void addVertices(std::span<const GpuMeshVertex> vertices) override;
    void addTriangles(std::span<const uint32_t> indices) override;
    Mesh& mesh() { return mesh_; }

private:
    Mesh mesh_;
};

} // namespace isoscope
