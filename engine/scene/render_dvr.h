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
#include "scene/ray_frame.h"

namespace isoscope {

struct GpuMesh;
struct MeshDrawParams;

struct DvrImage : OffscreenRayImage { // colour, depth (where a ray became opaque enough, else 1 or the mesh's), timings
    DvrRaycaster::Plan plan;              // what ran
};

DvrImage renderDvrImage(Context& context, DvrRaycaster& dvr, const DvrParams& params, VkExtent2D extent,
                        const GpuMesh* mesh = nullptr, const MeshDrawParams* meshParams = nullptr);

} // namespace isoscope
