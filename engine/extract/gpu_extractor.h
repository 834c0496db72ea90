#pragma once
// What every GPU extraction method implements, and the driver that runs one
// outside a frame (CLI `extract` and `bench`, tests).
//
// An extractor is built once for a volume and records its passes into a
// command buffer for any isovalue; it writes the mesh contract of gpu_mesh.h
// (counts and draw arguments on the GPU). The driver adds the counter reset
// before and finalize_mesh after, times every pass, and on overflow redoes the
// extraction with buffers of the counted size.
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <volk.h>

#include "extract/extract.h"
#include "extract/gpu_mesh.h"
#include "volume/gpu_volume.h"

namespace isoscope {

class Context;
class GpuTimer;

// Where an extractor reads the scalar field from.
struct FieldSource {
    const Volume* volume = nullptr;      // metadata (dims, spacing, origin, type); samples only for CPU-side needs
    const GpuVolume* gpuVolume = nullptr; // the samples on the device
};

class GpuExtractor {
public:
    virtual ~GpuExtractor() = default;

    virtual uint32_t faceSize() const { return 3; }

    // Records the method's passes for `iso` into `cmd`, writing into `mesh`
    // (whose counts were reset and made visible to compute shaders). Each
    // pass is timed as a scope of `timer` when one is given. Passes write
    // their own barriers until the render graph takes over that job; the last
    // pass's writes are made visible by the caller's finalize barrier.
    virtual void record(VkCommandBuffer cmd, float iso, const GpuMesh& mesh, GpuTimer* timer) = 0;

    // Device bytes the method holds beyond the input volume, the output mesh
    // and its constant tables: what the issue calls auxiliary memory (value
    // ranges, lists, counters, scan scratch), which grows with the volume.
    virtual uint64_t auxiliaryBytes() const = 0;
    // Device bytes of constant lookup tables (the 2 KiB marching-cubes case
    // table), the same for every volume and isovalue: reported apart.
    virtual uint64_t tableBytes() const { return 0; }

    // A first guess at the mesh size; the driver grows it on overflow.
    virtual std::array<uint64_t, 2> estimateCapacity(float iso) const;

    // After an extraction that raised the mesh's overflow flag: grows the
    // method's own work buffers if they were what overflowed (reading its
    // counters back) and says whether it did. The mesh is the driver's job.
    virtual bool growAfterOverflow() { return false; }

    // The volume's samples changed: anything derived from them alone (the
    // block method's value ranges) must be recomputed by the next record().
    // Isovalue changes need no call.
    virtual void volumeChanged() {}

    // What the last extraction worked on, read back after it (outside a
    // frame), for benchmarks: e.g. the block method's listed blocks.
    virtual std::vector<std::pair<std::string, uint64_t>> workCounts() { return {}; }

protected:
    explicit GpuExtractor(const Volume& volume) : dims_(volume.dims) {}
    std::array<uint32_t, 3> dims_;
};

// Builds the extractor of a GPU method; throws Error for an unknown one.
std::unique_ptr<GpuExtractor> createGpuExtractor(Context& context, const std::string& method, const FieldSource& field,
                                                 const ExtractOptions& options);

// A method's extractor with the volume uploaded in the forms it reads (none
// for an analytic field): what a host keeps to extract frame after frame.
struct PreparedExtraction {
    std::unique_ptr<GpuVolume> volume;
    std::unique_ptr<GpuExtractor> extractor;
};

PreparedExtraction prepareGpuExtraction(Context& context, const Volume& volume, const ExtractOptions& options);

// After a run whose counters report an overflow: grows the extractor's
// lists and, where its counts do not fit, replaces `mesh` with one of exactly
// the counted size. Throws Error when nothing explains the overflow.
void growAfterOverflow(Context& context, GpuExtractor& extractor, GpuMesh& mesh, const GpuMeshCounters& counters);

// Runs `options.warmup` untimed and `options.repeat` timed extractions of a
// GPU method and reads the mesh back once: timings are GPU timestamps, medians
// over the timed runs.
ExtractionReport runGpuExtraction(Context& context, const Volume& volume, float iso, const ExtractOptions& options);

} // namespace isoscope
