#pragma once
// Streamed extraction: a volume larger than the device (or than the host)
// extracted slab of z-planes by slab into one welded mesh, exactly the mesh
// of the in-core extraction (vertex for vertex, in another order).
//
//   std::unique_ptr<VolumeSource> source = openVolumeSource("ct_2048x2048x2048_uint8.raw");
//   MeshCollector collector;                  // or a MeshSink that writes a file as it goes
//   StreamOptions stream;
//   stream.deviceBudget = uint64_t(2) << 30;
//   StreamReport report = extractStreamed(context, *source, 100.0f, options, stream, collector);
//
// Each slab is a run of cell layers, extracted by the block method (the
// default) or the scan method (extract/stream/slab_method.h); its image (the
// scan method: storage buffer) holds its planes and, for the normals'
// central differences, one more on either side where the volume has them
// (the overlap both methods need). One image of the largest slab is reused. A slab's planes are read (on every core) into one of two
// persistently mapped staging buffers while the GPU uploads and extracts the
// slab before: one submission per slab records the "slab upload" graph, the
// block method's graph and a copy of the mesh counters to the host. The
// slab's mesh then comes back in one copy pass into a host-cached read-back
// buffer kept from slab to slab, and is welded (extract/stream/slab_weld.h)
// and sent to the sink on a thread of its own while the next slab uploads
// and extracts; the device only ever holds one slab's mesh, and a slab whose
// mesh does not fit the budget is extracted again in halves.
#include <cstdint>
#include <string>
#include <vector>

#include "core/progress.h"
#include "extract/extract.h"
#include "extract/stream/slab_method.h"
#include "extract/stream/slab_weld.h"
#include "volume/volume_source.h"

namespace isoscope {

class Context;

struct StreamOptions {
    uint64_t deviceBudget = 0; // device bytes the extraction may hold; 0: the device's budget
    uint32_t maxSlabLayers = 0; // at most this many cell layers a slab (0: as many as the budget allows)
    Progress progress;          // planes extracted of the volume's (items "planes", bytesDone: samples read)
};

struct SlabStats {
    uint32_t firstPlane = 0, cellLayers = 0;
    double readMs = 0;     // the host: planes read into staging (overlapping the previous slab's GPU work)
    double waitMs = 0;     // the host waited this long for that read after the previous slab
    double uploadMs = 0;   // GPU: the slab upload pass
    double extractMs = 0;  // GPU: the method's passes
    double setupMs = 0;    // the host: the slab's extractor, mesh and graphs made and compiled before submitting
    double gpuWaitMs = 0;  // the host waited this long for the upload and extraction submission(s)
    double teardownMs = 0; // the host: timestamps and counters read, the graphs destroyed, after that wait
    double downloadMs = 0; // the host: the slab's mesh copied into the read-back buffer (waited for)
    double readBackMs = 0; // GPU: that copy pass
    double weldMs = 0;     // a thread of its own: the mesh welded and sent to the sink (overlapping the next slab)
    double weldWaitMs = 0; // the host waited this long for the previous slab's weld before this read-back
    double wallMs = 0;     // the main thread's time on the slab, its waits included
    uint64_t vertices = 0, triangles = 0; // the slab's own, before welding
};

struct StreamReport {
    std::string method, device;
    uint32_t subgroupSize = 0;
    uint64_t deviceBudget = 0;
    uint32_t plannedCellLayers = 0; // per slab, from the budget
    uint64_t volumeBytes = 0, bytesRead = 0; // bytesRead counts the planes slabs share twice
    uint64_t stagingBytes = 0;      // the two staging buffers
    double wallMs = 0;
    uint64_t peakDeviceBytes = 0;
    uint64_t vertexCount = 0, faceCount = 0;
    uint32_t overflowRetries = 0, slabsSplit = 0;
    std::vector<SlabStats> slabs;
};

// The device bytes a streamed slab of `cellLayers` layers holds before its
// mesh: the image (with the planes around it), the two staging buffers (which
// count where the device maps them from its own memory, and are counted here
// either way), the method's work (SlabMethod::workBytes).
uint64_t streamSlabBytes(const SlabMethod& method, const Volume& grid, uint32_t cellLayers);

// The budget's cell layers per slab: the most whose slab bytes take at most
// half the budget (the rest for the slab's mesh and the graph's transients)
// and whose image holds at most 1 GiB (smaller slabs pipeline better).
// Throws Error, with the numbers, when even one layer does not fit.
uint32_t planSlabLayers(const SlabMethod& method, const Volume& grid, uint64_t budget);

// Whether extracting `volume` whole would need more device memory than
// `budget` holds: the image plus the block method's auxiliary memory and a
// first mesh.
bool needsStreaming(const Context& context, const Volume& grid, uint64_t budget);

// Runs the extraction; options.method "block" (or "auto") or "scan"
// (createSlabMethod refuses the others). Throws Error, before reading any
// sample, when one slab cannot fit the budget, and from a source that fails
// (the sink then holds the slabs before it).
StreamReport extractStreamed(Context& context, VolumeSource& source, float iso, const ExtractOptions& options,
                             const StreamOptions& stream, MeshSink& sink);

} // namespace isoscope
