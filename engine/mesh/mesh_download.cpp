#include "mesh/mesh_download.h"

#include <string>

#include "core/context.h"
#include "core/error.h"
#include "graph/render_graph.h"

namespace isoscope {

namespace {

constexpr ResourceState kWrittenByEarlierWork{VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT};
constexpr ResourceState kReadByHost{VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT};

} // namespace

void ensureMeshDownloadBuffer(Context& context, Buffer& target, const MeshDownloadLayout& layout)
{
    if (target.buffer && target.size >= layout.bytes())
        return;
    target = Buffer{}; // the old one goes before the larger one is made
    // A quarter more, so that isovalues whose meshes differ a little share it.
    target = context.allocator().createBuffer(std::max<uint64_t>(layout.bytes() * 5 / 4, 64),
                                              VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUsage::Readback,
                                              "mesh download buffer");
}

void addMeshDownloadPass(RenderGraph& graph, const GpuMesh& mesh, const MeshDownloadLayout& layout, const Buffer& target)
{
    if (layout.bytes() > target.size || !target.mapped || layout.vertices > mesh.vertexCapacity ||
        layout.faces > mesh.faceCapacity || layout.faceSize != mesh.faceSize)
        fail("a mesh download of " + std::to_string(layout.bytes()) + " bytes into " + std::to_string(target.size) +
             " (an engine bug)");
    ResourceId vertices = graph.importBuffer("mesh vertices", mesh.vertices.buffer, kWrittenByEarlierWork);
    ResourceId indices = graph.importBuffer("mesh indices", mesh.indices.buffer, kWrittenByEarlierWork);
    ResourceId host = graph.importBuffer("mesh on the host", target.buffer, {}, kReadByHost);
    graph.addPass("mesh download", PassKind::Transfer,
                  {{vertices, Use::TransferSrc}, {indices, Use::TransferSrc}, {host, Use::TransferDst}},
                  [=](VkCommandBuffer cmd, const RenderGraph& g) {
                      const uint64_t indexBytes = layout.bytes() - layout.indexOffset();
                      if (layout.vertices) {
                          VkBufferCopy region{0, 0, layout.indexOffset()};
                          vkCmdCopyBuffer(cmd, g.buffer(vertices), g.buffer(host), 1, &region);
                      }
                      if (indexBytes) {
                          VkBufferCopy region{0, layout.indexOffset(), indexBytes};
                          vkCmdCopyBuffer(cmd, g.buffer(indices), g.buffer(host), 1, &region);
                      }
                  },
                  true);
}

void downloadMeshInto(Context& context, const GpuMesh& mesh, const MeshDownloadLayout& layout, const Buffer& target)
{
    RenderGraph graph(context);
    addMeshDownloadPass(graph, mesh, layout, target);
    graph.compile();
    graph.execute();
}

} // namespace isoscope
