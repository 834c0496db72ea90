#include "extract/finalize_mesh.h"

#include <cstddef>

#include "graph/render_graph.h"
#include "mesh/gpu_mesh.h"

namespace isoscope {

void addResetCountersPass(RenderGraph& graph, const MeshBuffers& mesh, const std::string& name)
{
    ResourceId counters = mesh.counters;
    graph.addPass(name, PassKind::Transfer, {{counters, Use::TransferDst}},
                  [counters](VkCommandBuffer cmd, const RenderGraph& g) {
                      // Draw arguments and the two counts; the capacities after them stay.
                      vkCmdFillBuffer(cmd, g.buffer(counters), 0, offsetof(GpuMeshCounters, vertexCapacity), 0);
                      vkCmdFillBuffer(cmd, g.buffer(counters), offsetof(GpuMeshCounters, overflow), sizeof(uint32_t), 0);
                  });
}

void addFinalizeMeshPass(RenderGraph& graph, const ComputeProgram& finalize, const MeshBuffers& mesh,
                         const std::string& name)
{
    ResourceId counters = mesh.counters;
    uint32_t faceSize = mesh.faceSize;
    graph.addComputePass(name, finalize, {{counters, Use::StorageWrite, 0}},
                         [&finalize, counters, faceSize](VkCommandBuffer cmd, const RenderGraph& g) {
                             finalize.bind(cmd, {g.storage(counters)}, &faceSize, sizeof faceSize);
                             finalize.dispatch(cmd, 1);
                         });
}

} // namespace isoscope
