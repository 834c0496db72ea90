// The scan method on streamed slabs: the slab's raw samples in a storage
// buffer (its passes bind a range of planes at a time), uploaded by a
// buffer copy (slab_buffer_upload.h). The scan method's own slabs
// (slab_plan.h) then run inside each streamed slab, one where the budget
// allows.
#include <algorithm>

#include "extract/scan/slab_plan.h"
#include "extract/stream/slab_buffer_upload.h"
#include "extract/stream/slab_overlap_copy.h"
#include "extract/stream/slab_method.h"
#include "graph/render_graph.h"

namespace isoscope {

namespace {

class ScanSlabMethod final : public SlabMethod {
public:
    ScanSlabMethod(const Context& context, const Volume& grid, const ExtractOptions& options, uint64_t budget)
        : SlabMethod(context, "scan", grid, uint32_t(scalarSize(grid.type)), options)
    {
        // The plan gives the method's work at most half of what is left of
        // the budget beside the slab (streamed_extraction.cpp); its own slabs
        // split only where a list grows past that.
        if (!options_.budgetBytes)
            options_.budgetBytes = budget / 2;
    }

    GpuVolumeUsage volumeUsage() const override
    {
        return GpuVolumeUsage{.image = false, .buffer = true, .bufferInRanges = true};
    }

    // Beside the transients: the case table (2 KiB) and the list-entries counter, as the block method counts them.
    uint64_t workBytes(uint32_t cellLayers) const override { return transientBytes(cellLayers) + (uint64_t(4) << 10); }

    // Block sums, row starts and the occupied-point list of one slab of the
    // method's own, which is the whole streamed slab (slab_plan.h).
    uint64_t transientBytes(uint32_t cellLayers) const override
    {
        std::array<uint32_t, 3> dims = grid_.dims;
        dims[2] = std::min(grid_.dims[2], cellLayers + 1);
        return scanSlabBytes(context_, dims, cellLayers, false, true);
    }

    void addUploadPass(RenderGraph& graph, const GpuVolume& volume, const SlabStaging& staging, uint32_t planes,
                       uint32_t extractionFamily, uint32_t firstPlane, SlabUploadPart part) const override
    {
        addSlabBufferUploadPass(graph, volume, staging, planes, extractionFamily, firstPlane, part);
    }

    void addOverlapCopyPass(RenderGraph& graph, const GpuVolume& from, uint32_t fromPlane, const GpuVolume& to,
                            uint32_t planes) const override
    {
        addSlabBufferOverlapCopyPass(graph, from, fromPlane, to, planes, slabBufferAfterUpload(context_));
    }

    void acquireAfterUpload(RenderGraph& graph, const GpuVolume& volume) const override
    {
        graph.acquireImportedBuffer(volume.buffer().buffer, slabBufferAfterUpload(context_));
    }
};

} // namespace

std::unique_ptr<SlabMethod> createScanSlabMethod(const Context& context, const Volume& grid,
                                                 const ExtractOptions& options, uint64_t budget)
{
    return std::make_unique<ScanSlabMethod>(context, grid, options, budget);
}

} // namespace isoscope
