#pragma once
// One headless raycast image: "raycast" → read back colour and depth; with a
// mesh, "draw mesh" → "raycast" (its rays stopping at the mesh's depth) →
// read back, the two surfaces composited by depth in one frame. For the CLI's
// `render --mode` and for tests; an interactive host builds the same graph
// once and records it every frame.
#include <string>
#include <utility>
#include <vector>

#include "io/image_io.h"
#include "raycast/iso_raycaster.h"
#include "scene/ray_frame.h"

namespace isoscope {

struct GpuMesh;
struct MeshDrawParams;

struct RaycastImage : OffscreenRayImage { // colour, depth (1 where nothing was hit), pass timings
    RaycastMode mode = RaycastMode::Standard; // the mapping that ran
    uint32_t handedOnRays = 0; // Standard: rays warp marching finished (RaycastOptions::tailBudget)
};

// The number of rays the Standard mapping handed to warp marching in the
// last frame: a 4-byte host-visible buffer, a pass that copies the count
// from addIsoRaycastPass's list into it, and its value once the submission
// has finished.
Buffer createTailCountReadback(Context& context);
void addTailCountReadback(RenderGraph& graph, ResourceId tailRays, const Buffer& readback);
uint32_t readTailCount(const Buffer& readback);

RaycastImage renderRaycastImage(Context& context, IsoRaycaster& raycaster, const RaycastParams& params,
                                VkExtent2D extent, const GpuMesh* mesh = nullptr,
                                const MeshDrawParams* meshParams = nullptr);

} // namespace isoscope
