#pragma once
// A region of a volume's samples written to its GPU copy as a render-graph
// transfer pass: the box of the 3D image and, where the volume has one, the
// rows of the raw storage buffer, from a host-visible staging buffer.
//
//   RenderGraph upload(context);
//   Buffer staging = addRegionUploadPass(upload, context, gpuVolume, region, samples);
//   upload.compile();   // record it, then graphs whose passes read the new samples
#include "core/memory.h"
#include "volume/gpu_volume.h"
#include "volume/volume_region.h"

namespace isoscope {

class RenderGraph;

// How an upload imports the volume's image: whatever ran before may still
// read it (or wrote it: an upload before); whatever runs after reads what the
// copy wrote.
constexpr ResourceState kVolumeAfterEarlierWork{VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                                                VK_IMAGE_LAYOUT_GENERAL};
constexpr ResourceState kVolumeVisibleToLaterWork{VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT,
                                                  VK_IMAGE_LAYOUT_GENERAL};

// Adds "volume region upload" to `graph`, which should not use the volume
// otherwise: its imports wait for earlier work on the queue (frames in flight
// may still read the volume) and leave the new samples visible to all later
// work, so that a graph recorded after this one reads them. `samples` are
// the region's, x fastest, of the volume's type. Returns the staging buffer,
// filled: keep it until the graph has run.
Buffer addRegionUploadPass(RenderGraph& graph, Context& context, const GpuVolume& gpu, const VolumeRegion& region,
                           const void* samples);

} // namespace isoscope
