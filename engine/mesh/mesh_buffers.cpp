#include "mesh/mesh_buffers.h"

#include <optional>

#include "core/error.h"
#include "graph/render_graph.h"
#include "mesh/gpu_mesh.h"

namespace isoscope {

MeshBuffers importMesh(RenderGraph& graph, const GpuMesh& mesh, const std::string& name, bool hostDraws)
{
    auto after = [hostDraws](VkPipelineStageFlags2 stage, VkAccessFlags2 access) -> std::optional<ResourceState> {
        if (!hostDraws)
            return std::nullopt;
        return ResourceState{stage, access};
    };
    MeshBuffers buffers;
    // Quads are drawn by pulling vertices in the vertex shader (render/draw_quads.vert; the API's MeshBuffers).
    bool quads = mesh.faceSize == 4;
    const VkPipelineStageFlags2 pulled = VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT;
    const VkAccessFlags2 pulledAccess = VK_ACCESS_2_SHADER_STORAGE_READ_BIT;
    buffers.vertices = graph.importBuffer(name + " vertices", mesh.vertices.buffer, {},
                                          quads ? after(pulled, pulledAccess)
                                                : after(VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT,
                                                        VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT));
    buffers.indices = graph.importBuffer(name + " indices", mesh.indices.buffer, {},
                                         quads ? after(pulled, pulledAccess)
                                               : after(VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT, VK_ACCESS_2_INDEX_READ_BIT));
    buffers.counters = graph.importBuffer(name + " counters", mesh.counters.buffer, {},
                                          after(VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT,
                                                VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT));
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
