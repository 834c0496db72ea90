#pragma once
// One headless DVR image: "dvr" → read back colour and depth; with a mesh,
// "draw mesh" → "dvr" (its rays stopping at the mesh's depth, composited
// over what the mesh drew) → read back. For the CLI's `render --mode dvr`
// and for tests; an interactive host builds the same graph once and records
// it every frame.
#include <string>
#include <utility>
#include <vector>

#include "dvr/dvr_raycaster.h"
#include "io/image_io.h"

namespace isoscope {

struct GpuMesh;
struct MeshDrawParams;

struct DvrImage {
    RgbaImage image;
    std::vector<float> depth; // per pixel, row by row: 0..1 where a ray became opaque enough, else 1 (or the mesh's)
    std::vector<std::pair<std::string, double>> gpuMsPerPass; // empty without timestamps
    DvrRaycaster::Plan plan;                                   // what ran
};

DvrImage renderDvrImage(Context& context, DvrRaycaster& dvr, const DvrParams& params, VkExtent2D extent,
                        const GpuMesh* mesh = nullptr, const MeshDrawParams* meshParams = nullptr);

} // namespace isoscope
