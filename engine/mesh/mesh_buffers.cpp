#include "mesh/mesh_buffers.h"

#include "core/error.h"
#include "graph/render_graph.h"
#include "mesh/gpu_mesh.h"

namespace isoscope {

MeshBuffers importMesh(RenderGraph& graph, const GpuMesh& mesh, const std::string& name)
{
    MeshBuffers buffers;
    buffers.vertices = graph.importBuffer(name + " vertices", mesh.vertices.buffer);
    buffers.indices = graph.importBuffer(name + " indices", mesh.indices.buffer);
    buffers.counters = graph.importBuffer(name + " counters", mesh.counters.buffer);
    buffers.faceSize = mesh.faceSize;
    return buffers;
}

void setImportedMesh(RenderGraph& graph, const MeshBuffers& buffers, const GpuMesh& mesh)
{
    if (mesh.faceSize != buffers.faceSize)
        fail("a mesh of " + std::to_string(mesh.faceSize) + "-sided faces replaces one of " +
             std::to_string(buffers.faceSize) + " (engine bug)");
    graph.setImportedBuffer(buffers.vertices, mesh.vertices.buffer);
    graph.setImportedBuffer(buffers.indices, mesh.indices.buffer);
    graph.setImportedBuffer(buffers.counters, mesh.counters.buffer);
}

} // namespace isoscope
