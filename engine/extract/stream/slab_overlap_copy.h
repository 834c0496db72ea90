#pragma once
// The planes a streamed slab shares with the slab before (the overlap both
// methods need), copied on the device from the previous slab's volume
// instead of uploaded again from the host: a transfer pass in a graph of its
// own on the main queue, submitted before the slab's extraction, so the
// upload that next refills the previous slab's volume waits for this copy
// only, not for the extraction. The slab's volume arrives from its upload
// (acquired here, from the transfer queue's family) and is left in the state
// the extraction's imports expect (GENERAL, written and visible); the
// previous slab's volume is left in GENERAL too.
#include <cstdint>

#include "volume/gpu_volume.h"

namespace isoscope {

class RenderGraph;

// Adds "slab overlap copy": planes [fromPlane, fromPlane + planes) of
// `from`'s image to planes [0, planes) of `to`'s, `to` arriving in `arriving`
// (slabImageAfterUpload).
void addSlabOverlapCopyPass(RenderGraph& graph, const GpuVolume& from, uint32_t fromPlane, const GpuVolume& to,
                            uint32_t planes, const ResourceState& arriving);

// The same for volumes held as storage buffers of raw samples (the scan
// method), `to` arriving in `arriving` (slabBufferAfterUpload).
void addSlabBufferOverlapCopyPass(RenderGraph& graph, const GpuVolume& from, uint32_t fromPlane, const GpuVolume& to,
                                  uint32_t planes, const ResourceState& arriving);

} // namespace isoscope
