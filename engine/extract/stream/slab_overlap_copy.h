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
//
// Between images the copy is a compute pass (shaders/extract/stream/
// slab_overlap_copy*.comp) on the images' raw views: vkCmdCopyImage of 3D
// images took ~0.95 ms for 50 MB on the H100 (~53 GB/s), on the transfer
// queue's critical path (the next upload waits for it).
#include <cstdint>
#include <memory>

#include "volume/gpu_volume.h"

namespace isoscope {

class ComputeProgram;
class Context;
class RenderGraph;

// The copy's shader for volumes like `like` (made with
// GpuVolumeUsage::rawStorageView); null where they have no raw storage view.
std::shared_ptr<const ComputeProgram> makeSlabOverlapCopyProgram(Context& context, const GpuVolume& like);

// Adds "slab overlap copy": planes [fromPlane, fromPlane + planes) of
// `from`'s image to planes [0, planes) of `to`'s, `to` arriving in `arriving`
// (slabImageAfterUpload): by `program` (makeSlabOverlapCopyProgram) where
// given and both volumes have raw storage views, else by vkCmdCopyImage.
void addSlabOverlapCopyPass(RenderGraph& graph, const GpuVolume& from, uint32_t fromPlane, const GpuVolume& to,
                            uint32_t planes, const ResourceState& arriving,
                            std::shared_ptr<const ComputeProgram> program = nullptr);

// The same for volumes held as storage buffers of raw samples (the scan
// method), `to` arriving in `arriving` (slabBufferAfterUpload).
void addSlabBufferOverlapCopyPass(RenderGraph& graph, const GpuVolume& from, uint32_t fromPlane, const GpuVolume& to,
                                  uint32_t planes, const ResourceState& arriving);

} // namespace isoscope
