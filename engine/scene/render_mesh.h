#pragma once
// One headless image of a mesh: the graph "draw mesh" → "read back color",
// compiled, run once and read back. For the CLI's `render` and for tests; an
// interactive host builds the same graph once and records it every frame.
#include <string>
#include <utility>
#include <vector>

#include "io/image_io.h"
#include "mesh/gpu_mesh.h"
#include "render/mesh_pass.h"

namespace isoscope {

struct RenderedImage {
    RgbaImage image;
    std::vector<std::pair<std::string, double>> gpuMsPerPass; // empty without timestamps
};

RenderedImage renderMeshImage(Context& context, const GpuMesh& mesh, const MeshDrawParams& params,
                              VkExtent2D extent);

class GpuExtractor;

// The graph "extract" → "draw mesh" → "read back color": the mesh goes from
// the extractor to the draw on the GPU, with no read-back between. After the
// frame the counters are read (outside it); when the mesh or the method's
// lists overflowed, they grow and the frame is redone. `mesh` is the
// extractor's output, resized here as needed; `counters` receives its counts.
RenderedImage renderExtractionImage(Context& context, GpuExtractor& extractor, float iso, GpuMesh& mesh,
                                    const MeshDrawParams& params, VkExtent2D extent, GpuMeshCounters& counters);

} // namespace isoscope
