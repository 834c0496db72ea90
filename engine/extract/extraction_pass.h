#pragma once
// A GPU extraction as passes of a render graph, so that a frame extracts and
// draws with no read-back between: "reset counters" (transfer) and the
// method's compute work plus finalize_mesh (one compute pass that writes the
// mesh buffers and its draw arguments). The graph then places the barriers
// to whatever reads the mesh (the raster pass's indirect draw). The method's
// own passes order themselves inside that compute pass.
//
//   MeshBuffers mesh = importMesh(graph, gpuMesh);
//   ExtractionPass extraction(context, *extractor);
//   extraction.add(graph, gpuMesh, mesh, iso);      // iso read at record time
//   addMeshPass(graph, renderer, mesh, targets, params);
//
// Overflow: the counters say so after the frame (readCounters); the host then
// grows the mesh (or extractor->growAfterOverflow()) and records again.
#include <string>

#include "core/shader.h"
#include "extract/gpu_extractor.h"
#include "render/mesh_pass.h"

namespace isoscope {

class ExtractionPass {
public:
    ExtractionPass(Context& context, GpuExtractor& extractor);

    // `gpuMesh` and `iso` must outlive the graph's recordings; the graph
    // resources in `mesh` must be imports of gpuMesh's buffers.
    void add(RenderGraph& graph, const GpuMesh& gpuMesh, const MeshBuffers& mesh, const float& iso,
             const std::string& name = "extract");

private:
    GpuExtractor& extractor_;
    ComputeProgram finalize_;
};

} // namespace isoscope
