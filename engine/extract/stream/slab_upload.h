#pragma once
// The upload of a streamed slab's planes as a render-graph transfer pass:
// from a persistently mapped staging buffer (one of the streamer's ring) into
// the slab image's first planes, before the extraction's passes in the same
// graph read them.
#include <cstdint>

#include "core/memory.h"
#include "volume/gpu_volume.h"

namespace isoscope {

class RenderGraph;

// Adds "slab upload": `planes` z-planes of texels (the image's format, x
// fastest) from `staging` to planes [0, planes) of the volume's image. The
// image is imported as written and read by earlier submissions, and left
// readable by every later one.
void addSlabUploadPass(RenderGraph& graph, const GpuVolume& volume, const Buffer& staging, uint32_t planes);

} // namespace isoscope
