#include "extract/extraction_pass.h"

#include "core/barrier.h"
#include "graph/render_graph.h"

namespace isoscope {

ExtractionPass::ExtractionPass(Context& context, GpuExtractor& extractor)
    : extractor_(extractor), finalize_(context, loadShader("extract/finalize_mesh"))
{
}

void ExtractionPass::add(RenderGraph& graph, const GpuMesh& gpuMesh, const MeshBuffers& mesh, const float& iso,
                         const std::string& name)
{
    graph.addPass(name + ": reset counters", PassKind::Transfer, {{mesh.counters, Use::TransferDst}},
                  [&gpuMesh](VkCommandBuffer cmd, const RenderGraph&) { recordResetCounters(cmd, gpuMesh); });
    std::vector<ResourceUse> uses = {{mesh.vertices, Use::StorageWrite},
                                     {mesh.indices, Use::StorageWrite},
                                     {mesh.counters, Use::StorageWrite}};
    graph.addPass(name, PassKind::Compute, uses, [this, &gpuMesh, &iso](VkCommandBuffer cmd, const RenderGraph&) {
        extractor_.record(cmd, iso, gpuMesh, nullptr);
        // Inside the pass, the method's last writes before finalize reads the counts.
        memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
        uint32_t faceSize = gpuMesh.faceSize;
        finalize_.bind(cmd, {{gpuMesh.vertices.buffer}, {gpuMesh.indices.buffer}, {gpuMesh.counters.buffer}},
                       &faceSize, sizeof(faceSize));
        finalize_.dispatch(cmd, 1);
    });
}

} // namespace isoscope
