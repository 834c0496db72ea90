#pragma once
// A GPU mesh's counted vertices and faces on their way to the host: one
// render-graph transfer pass into a persistently mapped, host-cached buffer
// the caller keeps between read-backs (no allocation, no copy through a
// temporary), vertices first, then faceSize indices a face. The graph leaves
// the buffer visible to the host.
//
//   MeshDownloadLayout layout{counters.vertexCount, counters.faceCount, mesh.faceSize};
//   ensureMeshDownloadBuffer(context, kept, layout);
//   downloadMeshInto(context, mesh, layout, kept);   // submits, waits
//   const GpuMeshVertex* vertices = layout.vertexData(kept);
#include <cstdint>

#include "core/memory.h"
#include "mesh/gpu_mesh.h"

namespace isoscope {

class RenderGraph;

struct MeshDownloadLayout {
    uint64_t vertices = 0, faces = 0;
    uint32_t faceSize = 3;
    uint64_t indexOffset() const { return vertices * sizeof(GpuMeshVertex); }
    uint64_t bytes() const { return indexOffset() + faces * faceSize * sizeof(uint32_t); }
    const GpuMeshVertex* vertexData(const Buffer& target) const { return static_cast<const GpuMeshVertex*>(target.mapped); }
    const uint32_t* indexData(const Buffer& target) const
    {
        return reinterpret_cast<const uint32_t*>(static_cast<const std::byte*>(target.mapped) + indexOffset());
    }
};

// Grows `target` (host-cached, mapped) to hold `layout`; keeps it where it does.
void ensureMeshDownloadBuffer(Context& context, Buffer& target, const MeshDownloadLayout& layout);

// Adds "mesh download": the layout's vertices and faces of `mesh`, which
// earlier submissions wrote, into `target`.
void addMeshDownloadPass(RenderGraph& graph, const GpuMesh& mesh, const MeshDownloadLayout& layout, const Buffer& target);

// That pass on a graph of its own, submitted and waited for.
void downloadMeshInto(Context& context, const GpuMesh& mesh, const MeshDownloadLayout& layout, const Buffer& target);

} // namespace isoscope
