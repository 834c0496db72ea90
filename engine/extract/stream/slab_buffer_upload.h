#pragma once
// The upload of a streamed slab's planes into a storage buffer, for methods
// that read raw samples (the scan method), as a render-graph transfer pass:
// from a persistently mapped staging buffer (one of the streamer's ring)
// into the slab volume's buffer, before the extraction's passes read it.
#include <cstdint>

#include "core/memory.h"
#include "volume/gpu_volume.h"

namespace isoscope {

class RenderGraph;

// Adds "slab upload": `planes` z-planes of raw samples (x fastest) from
// `staging` to planes [0, planes) of the volume's buffer. The buffer is
// imported as read by earlier submissions, and left readable by every
// later one.
void addSlabBufferUploadPass(RenderGraph& graph, const GpuVolume& volume, const Buffer& staging, uint32_t planes);

} // namespace isoscope
