#include "extract/stream/mesh_read_back.h"

#include <string>
#include <vector>

#include "core/error.h"
#include "graph/render_graph.h"

namespace isoscope {

namespace {

constexpr ResourceState kWrittenByEarlierWork{VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT};
constexpr ResourceState kReadByHost{VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT};

} // namespace

void addCountersReadBackPass(RenderGraph& graph, ResourceId counters, const Buffer& target)
{
    if (target.size < sizeof(GpuMeshCounters) || !target.mapped)
        fail("a counters read-back buffer of " + std::to_string(target.size) + " bytes (an engine bug)");
    ResourceId host = graph.importBuffer("mesh counters on the host", target.buffer, {}, kReadByHost);
    graph.addPass("mesh counters read-back", PassKind::Transfer, {{counters, Use::TransferSrc}, {host, Use::TransferDst}},
                  [=](VkCommandBuffer cmd, const RenderGraph& g) {
                      VkBufferCopy region{0, 0, sizeof(GpuMeshCounters)};
                      vkCmdCopyBuffer(cmd, g.buffer(counters), g.buffer(host), 1, &region);
                  },
                  true);
}

void addMeshReadBackPass(RenderGraph& graph, const GpuMesh& mesh, const Buffer& codes, const MeshReadBackLayout& layout,
                         const Buffer& target)
{
    if (layout.bytes() > target.size || !target || layout.vertices > mesh.vertexCapacity ||
        layout.triangles > mesh.faceCapacity)
        fail("a mesh read-back of " + std::to_string(layout.bytes()) + " bytes into " + std::to_string(target.size) +
             " (an engine bug)");
    ResourceId vertices = graph.importBuffer("slab mesh vertices", mesh.vertices.buffer, kWrittenByEarlierWork);
    ResourceId indices = graph.importBuffer("slab mesh indices", mesh.indices.buffer, kWrittenByEarlierWork);
    ResourceId edgeCodes = graph.importBuffer("slab edge codes", codes.buffer, kWrittenByEarlierWork);
    ResourceId host = graph.importBuffer("slab mesh on the host", target.buffer, {}, kReadByHost);
    graph.addPass("mesh read-back", PassKind::Transfer,
                  {{vertices, Use::TransferSrc},
                   {indices, Use::TransferSrc},
                   {edgeCodes, Use::TransferSrc},
                   {host, Use::TransferDst}},
                  [=](VkCommandBuffer cmd, const RenderGraph& g) {
                      struct Part {
                          ResourceId source;
                          uint64_t bytes, offset;
                      };
                      for (Part part : {Part{vertices, layout.vertices * sizeof(GpuMeshVertex), 0},
                                        Part{indices, layout.triangles * 12, layout.indexOffset()},
                                        Part{edgeCodes, layout.vertices * 4, layout.codeOffset()}}) {
                          if (part.bytes == 0)
                              continue;
                          VkBufferCopy region{0, part.offset, part.bytes};
                          vkCmdCopyBuffer(cmd, g.buffer(part.source), g.buffer(host), 1, &region);
                      }
                  },
                  true);
}

} // namespace isoscope
