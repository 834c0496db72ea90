#pragma once
// A streamed slab's mesh on its way to the host, as render-graph transfer
// passes into persistently mapped, host-cached read-back buffers that the
// streamer keeps from slab to slab (no allocation, no wait per array): the
// counters at the end of the slab's extraction, then the counted vertices,
// triangles and edge codes in one copy pass. The graph leaves the targets
// visible to the host.
#include <cstdint>

#include "core/memory.h"
#include "graph/graph_desc.h"
#include "mesh/gpu_mesh.h"

namespace isoscope {

class RenderGraph;

// Where each array lies in the mesh read-back buffer: vertices first, then
// 3 indices a triangle, then one edge code a vertex.
struct MeshReadBackLayout {
    uint64_t vertices = 0, triangles = 0;
    uint64_t indexOffset() const { return vertices * sizeof(GpuMeshVertex); }
    uint64_t codeOffset() const { return indexOffset() + triangles * 12; }
    uint64_t bytes() const { return codeOffset() + vertices * 4; }
};

// Adds "mesh counters read-back": the mesh's counters (the graph's resource
// `counters`, written by the extraction's passes before) into `target`.
void addCountersReadBackPass(RenderGraph& graph, ResourceId counters, const Buffer& target);

// Adds "mesh read-back": the first `layout.vertices` vertices and edge codes
// and `layout.triangles` triangles of `mesh` and `codes`, which earlier
// submissions wrote, into `target` as the layout says (host memory: mapped,
// or host pages the device imported, core/host_import.h).
void addMeshReadBackPass(RenderGraph& graph, const GpuMesh& mesh, const Buffer& codes, const MeshReadBackLayout& layout,
                         const Buffer& target);

} // namespace isoscope
