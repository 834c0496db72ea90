#pragma once
// One headless image of a mesh: the graph "draw mesh" → "read back color",
// compiled, run once and read back. For the CLI's `render` and for tests; an
// interactive host builds the same graph once and records it every frame.
#include <string>
#include <utility>
#include <vector>

#include "io/image_io.h"
#include "render/mesh_pass.h"

namespace isoscope {

struct RenderedImage {
    RgbaImage image;
    std::vector<std::pair<std::string, double>> gpuMsPerPass; // empty without timestamps
};

RenderedImage renderMeshImage(Context& context, const GpuMesh& mesh, const MeshDrawParams& params,
                              VkExtent2D extent);

} // namespace isoscope
