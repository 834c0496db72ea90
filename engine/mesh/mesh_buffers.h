#pragma once
// A GPU mesh (gpu_mesh.h) as resources of a render graph: what an extraction
// writes and the raster pass draws, so neither needs to know the other.
#include <cstdint>
#include <string>

#include "graph/graph_desc.h"

namespace isoscope {

class RenderGraph;
struct GpuMesh;

struct MeshBuffers {
    ResourceId vertices = kNoResource;
    ResourceId indices = kNoResource;
    ResourceId counters = kNoResource; // its first 20 bytes are the VkDrawIndexedIndirectCommand
    uint32_t faceSize = 3;
};

// Imports the three buffers of a mesh. A pass that writes them (an
// extraction) declares StorageWrite uses of these ids; one that draws them
// declares VertexBuffer, IndexBuffer and IndirectArgs. `hostDraws`: the
// graph leaves them ready for a draw the host records after it.
MeshBuffers importMesh(RenderGraph& graph, const GpuMesh& mesh, const std::string& name = "mesh",
                       bool hostDraws = false);

// Points the imports at another mesh of the same face size (after the buffers
// grew): no recompile needed.
void setImportedMesh(RenderGraph& graph, const MeshBuffers& buffers, const GpuMesh& mesh);

} // namespace isoscope
