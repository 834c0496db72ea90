#pragma once
// The upload of a streamed slab's planes as a render-graph transfer pass on
// the transfer queue: from a persistently mapped staging buffer (one of the
// streamer's ring) into the whole slab image, which the graph then releases
// to the main queue's family; the extraction's graph acquires it there
// (slabImageAfterUpload). Where one queue serves both (no dedicated transfer
// family), the same states are ordinary ones and nothing changes hands.
#include <cstdint>

#include "core/memory.h"
#include "extract/stream/slab_staging.h"
#include "graph/graph_desc.h"
#include "volume/gpu_volume.h"

namespace isoscope {

class Context;
class RenderGraph;

// Adds "slab upload": z-planes of texels (the image's format, `texelBytes`
// each, x fastest) from the staging pieces (one copy each) to their planes
// from `firstPlane` on of the volume's image, whose planes must be
// `planes`. The `part.first` discards the image's old contents (whatever
// read them before is the submission's wait to order; planes below
// `firstPlane` are the overlap copy's, slab_overlap_copy.h); the
// `part.last` leaves the image in GENERAL, released to `extractionFamily`
// (the main queue's) where that is another family than the graph's; the
// parts between find and leave it as the transfer before wrote it. A whole
// upload's pieces cover every plane.
void addSlabUploadPass(RenderGraph& graph, const GpuVolume& volume, const SlabStaging& staging, uint32_t planes,
                       uint32_t extractionFamily, uint32_t firstPlane, uint32_t texelBytes,
                       SlabUploadPart part = {});

// The state a slab image arrives in for the extraction's graph
// (RenderGraph::acquireImportedImage): acquired from the transfer queue's
// family in the release's layouts, or, with one queue, written by the
// upload before.
ResourceState slabImageAfterUpload(const Context& context);

} // namespace isoscope
