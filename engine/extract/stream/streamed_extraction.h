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
// (the overlap both methods need). Slabs go round a ring of two slab
// volumes, filled from one slab's staging (host pages imported by the
// device where it can, core/host_import.h, else the driver's pinned memory)
// in pieces of whole planes (~128 MiB), each imported on its own, read into
// and uploaded from on its own, so the first slab's first piece uploads
// while later ones are pinned, and each piece is refilled as soon as it is
// copied:
//
//   host        read slab k+2's piece p into staging piece p (every core) once upload k+1's piece p is done
//   transfer    upload k+1 piece by piece: staging -> volume (k+1)%2, but the 3 planes slab k+1 shares
//               with slab k, after the copy that last read that volume; the last piece releases it
//   main        copy slab k's 3 planes shared with slab k-1 from volume (k-1)%2 (a submission of its own,
//               after slab k's upload), extract k from volume k%2, counters to the host; then slab k's mesh
//               copied into one of three read-back buffers in turn (imported host pages where the device can)
//   weld thread slab k's mesh welded (extract/stream/slab_weld.h) and sent to the sink
//
// The transfer queue is a dedicated one where the device has it (its copies
// run beside the extraction; the slab volume changes queue family by a
// release and an acquire in the graphs) and the main queue otherwise;
// timeline semaphores order the submissions (graph/graph_queue.h). The host
// waits only for slab k's extraction, to size its mesh's read-back, while
// slab k+1 uploads. Graphs are compiled once per slab size and slot and
// recorded again for every slab. The device only ever holds one slab's
// mesh; a slab whose mesh does not fit the budget is extracted in parts
// (halves, again as needed) from its volume.
#include <cstdint>
#include <string>
#include <vector>

#include "core/progress.h"
#include "extract/extract.h"
#include "extract/stream/slab_method.h"
#include "extract/stream/slab_windows.h"
#include "extract/stream/slab_weld.h"
#include "volume/volume_source.h"

namespace isoscope {

class Context;

struct StreamOptions {
    uint64_t deviceBudget = 0; // device bytes the extraction may hold; 0: the device's budget
    // At most this many cell layers a slab, as the budget allows (0: as many
    // as the budget allows in images of at most 512 MiB).
    uint32_t maxSlabLayers = 0;
    uint64_t stagingPieceBytes = 0; // staging imported in pieces of about this many bytes, whole planes (0: 128 MiB)
    // The slabs' meshes come back into host pages the device imports where
    // it can (core/host_import.h: pinned in a few ms, on every core, while
    // the uploads run); false, or where it cannot: the driver's host memory
    // (lavapipe: its device memory, counted against the budget).
    bool importReadBack = true;
    Progress progress;          // planes extracted of the volume's (items "planes", bytesDone: samples read)
};

struct SlabStats {
    uint32_t firstPlane = 0, cellLayers = 0;
    double readMs = 0;     // the host: planes read into staging (overlapping the GPU work of the slabs before)
    double stagingWaitMs = 0; // the reader waited this long for the read before and the upload freeing its staging
    double waitMs = 0;     // the main thread waited this long, in this slab's turn, for the next slab's read
    double uploadMs = 0;   // GPU: the slab upload pass
    double extractMs = 0;  // GPU: the method's passes
    double overlapCopyMs = 0; // GPU: the planes shared with the slab before, copied from its image
    // GPU timestamps (ms of the device's clock; the report makes them
    // relative to the first upload): the upload's and the extraction's
    // spans, whose overlap with the next slab's upload is the pipelining.
    double uploadStartMs = 0, uploadEndMs = 0, extractStartMs = 0, extractEndMs = 0;
    double setupMs = 0;    // the host: extractors, mesh and graphs made (graphs only for a new slab size) before submitting
    double gpuWaitMs = 0;  // the host waited this long for the extraction submission(s)
    double teardownMs = 0; // the host: timestamps and counters read after that wait
    double downloadMs = 0; // the host: the slab's mesh read-back recorded and submitted (not waited for)
    double readBackMs = 0; // GPU: that copy pass
    double weldMs = 0;     // a thread of its own: the mesh welded and sent to the sink (overlapping the next slab)
    double weldSinkMs = 0; // of weldMs, in the sink (a MeshCollector's copies and pages, a file's writes)
    double weldWaitMs = 0; // the host waited this long for the previous slab's weld before this read-back
    double wallMs = 0;     // the main thread's time on the slab, its waits included
    uint64_t vertices = 0, triangles = 0; // the slab's own, before welding
};

struct StreamReport {
    std::string method, device;
    uint32_t subgroupSize = 0;
    uint64_t deviceBudget = 0;
    uint32_t plannedCellLayers = 0; // per slab, from the budget
    uint64_t volumeBytes = 0, bytesRead = 0; // bytesRead: the planes slabs share are read once
    uint64_t bytesUploaded = 0;     // host to device: the slabs' planes but those the overlap copy gives
    uint64_t overlapBytesCopied = 0; // device to device: the planes each slab shares with the one before
    uint64_t stagingBytes = 0;      // the staging: one slab image's planes
    uint32_t stagingPieces = 0;     // the staging in this many pieces (imported, read and uploaded one by one)
    bool stagingImported = false;   // host pages imported (core/host_import.h), else the driver's pinned memory
    bool readBackImported = false;  // the meshes' read-back buffers too, else the driver's memory
    bool readBackOnDevice = false;  // the read-back buffers are device memory the host maps (lavapipe without import)
    uint32_t readBackSlots = 0;     // read-back buffers in the ring at the end (more where welds fell behind)
    double stagingMs[2] = {0, 0};   // the staging made (a thread of its own, beside the first read); [1]: none since one staging
    bool transferQueue = false;     // uploads on a dedicated transfer queue (else the main queue)
    // The clock starts where extractStreamed is called: everything after
    // the caller has its context and its source is in wallMs.
    double wallMs = 0;
    double firstUploadMs = 0;       // from the start to the first upload's submission: the start-up
    // The start-up's steps, each the ms from the start at which it ended.
    struct Startup {
        double constructed = 0;      // method, slab plan, queues
        double stagingPages[2] = {0, 0}; // the staging's host pages mapped (0: none, pinned pieces; [1]: unused)
        double firstPieceReady = 0;  // the first staging piece imported (or allocated)
        double slot0Ready = 0;       // all of the staging's pieces
        double images = 0;           // the ring's images made (main thread)
        double uploadGraph = 0;      // the first piece's upload graph compiled
        double firstRead = 0;        // slab 0 read and its pieces' uploads submitted (the main thread's waits ended)
        double extractors = 0;       // the first two slabs' extractors (their pipelines), after the first upload
    } startup;
    uint64_t peakDeviceBytes = 0;
    uint64_t vertexCount = 0, faceCount = 0;
    uint32_t overflowRetries = 0, slabsSplit = 0;
    std::vector<SlabStats> slabs;
};

// Runs the extraction; options.method "block" (or "auto") or "scan"
// (createSlabMethod refuses the others). Throws Error, before reading any
// sample, when one slab cannot fit the budget, and from a source that fails
// (the sink then holds the slabs before it).
StreamReport extractStreamed(Context& context, VolumeSource& source, float iso, const ExtractOptions& options,
                             const StreamOptions& stream, MeshSink& sink);

} // namespace isoscope
