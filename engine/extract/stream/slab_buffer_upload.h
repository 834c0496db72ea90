#pragma once
// The upload of a streamed slab's planes into a storage buffer, for methods
// that read raw samples (the scan method), as a render-graph transfer pass
// on the transfer queue: from a persistently mapped staging buffer (one of
// the streamer's ring) into the slab volume's buffer, which the graph then
// releases to the main queue's family; the extraction's graph acquires it
// there (slabBufferAfterUpload). With one queue for both, the same states
// are ordinary ones.
#include <cstdint>

#include "core/memory.h"
#include "extract/stream/slab_staging.h"
#include "graph/graph_desc.h"
#include "volume/gpu_volume.h"

namespace isoscope {

class Context;
class RenderGraph;

// Adds "slab upload": `planes` z-planes of raw samples (x fastest) from the
// staging pieces (one copy each) to planes [firstPlane, planes) of the
// volume's buffer, whose planes must be `planes`: its old contents are
// discarded (whatever read them before is the submission's wait to order;
// planes below `firstPlane` are the overlap copy's, slab_overlap_copy.h). Released to `extractionFamily` where that is
// another family than the graph's.
// Uploaded piece by piece, `part` says which (slab_staging.h: the first
// discards, the last releases).
void addSlabBufferUploadPass(RenderGraph& graph, const GpuVolume& volume, const SlabStaging& staging, uint32_t planes,
                             uint32_t extractionFamily, uint32_t firstPlane, SlabUploadPart part = {});

// The state the slab buffer arrives in for the extraction's graph
// (RenderGraph::acquireImportedBuffer).
ResourceState slabBufferAfterUpload(const Context& context);

} // namespace isoscope
