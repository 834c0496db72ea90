#pragma once
// What streamed extraction (streamed_extraction.h) asks of the method it runs
// on each slab, so that the streamer itself names no method:
//   - where a slab's samples live on the device and in what form staging
//     holds them: the block method samples a 3D image (floats where the
//     device lacks the format), the scan method reads the raw samples from a
//     storage buffer, bound a range of planes at a time;
//   - the device bytes its own work takes for a slab of L cell layers, for
//     the budget's plan (slab layers) before any sample is read;
//   - the pass that uploads a slab's planes from staging (on the transfer
//     queue, releasing the slab volume to the extraction's queue family),
//     and the acquire of it in the extraction's graph.
// Both methods need the same overlap: a slab's grid planes and one more on
// either side where the volume has them, for the normals' central
// differences (the scan method's exact ones, the block method's filtered ones).
//
//   std::unique_ptr<SlabMethod> method = createSlabMethod(context, source.grid(), options, budget);
//   GpuVolume slab(context, slabGrid, method->volumeUsage(), samples);
//   method->addUploadPass(upload, slab, staging, planes, context.queueFamily(), 0); // a transfer-queue graph
//   method->acquireAfterUpload(extraction, slab);                                  // the extraction's graph
//   // or, for a slab after the first: upload from plane 3, then
//   method->addOverlapCopyPass(overlap, previousSlab, fromPlane, slab, 3);         // main queue, before extraction
//
// Methods whose work spans the whole volume (histopyramid's count pyramid,
// dual's edge hash table and halfedges) have no slab form: createSlabMethod
// refuses them with an error naming --method.
#include <cstdint>
#include <memory>
#include <string>

#include "core/memory.h"
#include "extract/extract.h"
#include "extract/stream/slab_staging.h"
#include "volume/gpu_volume.h"

namespace isoscope {

class Context;
class RenderGraph;

class SlabMethod {
public:
    virtual ~SlabMethod() = default;

    // "block" or "scan": the extractor createGpuExtractor builds for a slab.
    const std::string& name() const { return name_; }
    // Bytes a sample takes in staging and on the device.
    uint32_t texelBytes() const { return texelBytes_; }
    // Whether staging holds floats converted from the source's samples.
    bool converted() const { return texelBytes_ != scalarSize(grid_.type); }
    // Whether staging (host-visible memory) is the device's own and counts
    // against the budget: on lavapipe, not on a discrete GPU (pinned host memory).
    bool stagingOnDevice() const { return stagingOnDevice_; }
    // The forms the slab's GpuVolume is made in.
    virtual GpuVolumeUsage volumeUsage() const = 0;
    // Device bytes of the method's own buffers for a slab of `cellLayers`
    // layers beyond its samples: what lasts from slab to slab and the
    // graph's transients (lists, maps, block sums).
    virtual uint64_t workBytes(uint32_t cellLayers) const = 0;
    // The graph's transients alone, until a compiled graph says.
    virtual uint64_t transientBytes(uint32_t cellLayers) const = 0;
    // Adds "slab upload": planes [firstPlane, planes) from the staging
    // pieces (texelBytes() a sample, x fastest) into the slab volume of
    // `planes` planes (its old contents discarded: what read them before is
    // the submission's wait to order; the planes below `firstPlane` are the
    // overlap copy's), released to `extractionFamily` where the graph's
    // queue family is another.
    // Uploaded piece by piece, `part` says which (slab_staging.h).
    virtual void addUploadPass(RenderGraph& graph, const GpuVolume& volume, const SlabStaging& staging, uint32_t planes,
                               uint32_t extractionFamily, uint32_t firstPlane, SlabUploadPart part = {}) const = 0;
    // Marks, in the graph that extracts the slab next, the slab volume as
    // arriving from that upload (acquired from the transfer queue's family).
    virtual void acquireAfterUpload(RenderGraph& graph, const GpuVolume& volume) const = 0;
    // Adds "slab overlap copy" (a graph of its own on the main queue, before
    // the extraction's, which then does not acquire): planes [fromPlane,
    // fromPlane + planes) of the previous slab's volume into planes [0,
    // planes) of `to`, arriving from its upload (slab_overlap_copy.h).
    virtual void addOverlapCopyPass(RenderGraph& graph, const GpuVolume& from, uint32_t fromPlane,
                                    const GpuVolume& to, uint32_t planes) const = 0;
    // The options every slab's extractor is built with.
    const ExtractOptions& extractOptions() const { return options_; }

protected:
    SlabMethod(const Context& context, std::string name, const Volume& grid, uint32_t texelBytes,
               ExtractOptions options);

    const Context& context_;
    std::string name_;
    const Volume& grid_;
    uint32_t texelBytes_;
    ExtractOptions options_;
    bool stagingOnDevice_ = true;
};

// The slab form of options.method ("auto" streams with the block method).
// `budget`: the device bytes the whole streamed extraction may hold. Throws
// Error naming --method for a method that cannot stream, and naming
// --no-weld for an unwelded mesh (slabs are welded by edge).
std::unique_ptr<SlabMethod> createSlabMethod(const Context& context, const Volume& grid, const ExtractOptions& options,
                                             uint64_t budget);

std::unique_ptr<SlabMethod> createBlockSlabMethod(const Context& context, const Volume& grid,
                                                  const ExtractOptions& options);
std::unique_ptr<SlabMethod> createScanSlabMethod(const Context& context, const Volume& grid,
                                                 const ExtractOptions& options, uint64_t budget);

} // namespace isoscope
