// The block method on streamed slabs: the slab's planes in a 3D image (the
// value-range pass and the triangle pass sample it), uploaded by a copy
// into the image (slab_upload.h), the planes shared with the slab before by
// a copy between the ring's images (slab_overlap_copy.h, a shader on their
// raw views).
#include "extract/stream/slab_method.h"
#include "extract/stream/slab_overlap_copy.h"
#include "extract/stream/slab_upload.h"
#include "core/shader.h"
#include "graph/render_graph.h"

namespace isoscope {

namespace {

class BlockSlabMethod final : public SlabMethod {
public:
    BlockSlabMethod(const Context& context, const Volume& grid, const ExtractOptions& options)
        : SlabMethod(context, "block", grid, volumeTexelBytes(context, grid.type), options)
    {
    }

    GpuVolumeUsage volumeUsage() const override
    {
        GpuVolumeUsage usage;
        usage.rawStorageView = true; // for the overlap copy's shader
        return usage;
    }

    // Value ranges (4 bytes a block), listed-block words (1/4), a list of an
    // eighth of the blocks at 16 bytes an entry (block_extractor.h).
    uint64_t workBytes(uint32_t cellLayers) const override
    {
        uint64_t blocks = blocksOf(cellLayers);
        return blocks * 4 + transientBytes(cellLayers) + (uint64_t(4) << 10);
    }

    uint64_t transientBytes(uint32_t cellLayers) const override
    {
        uint64_t blocks = blocksOf(cellLayers);
        return blocks / 4 + blocks / 8 * 16;
    }

    void addUploadPass(RenderGraph& graph, const GpuVolume& volume, const SlabStaging& staging, uint32_t planes,
                       uint32_t extractionFamily, uint32_t firstPlane, SlabUploadPart part) const override
    {
        addSlabUploadPass(graph, volume, staging, planes, extractionFamily, firstPlane, texelBytes_, part);
    }

    void addOverlapCopyPass(RenderGraph& graph, const GpuVolume& from, uint32_t fromPlane, const GpuVolume& to,
                            uint32_t planes) const override
    {
        if (!copyProgramMade_) {
            copyProgram_ = makeSlabOverlapCopyProgram(graph.context(), to);
            copyProgramMade_ = true;
        }
        addSlabOverlapCopyPass(graph, from, fromPlane, to, planes, slabImageAfterUpload(context_), copyProgram_);
    }

    void acquireAfterUpload(RenderGraph& graph, const GpuVolume& volume) const override
    {
        graph.acquireImportedImage(volume.image().image, slabImageAfterUpload(context_));
    }

private:
    // The overlap copy's shader, made with the first copy's graph (null: vkCmdCopyImage).
    mutable std::shared_ptr<const ComputeProgram> copyProgram_;
    mutable bool copyProgramMade_ = false;

    uint64_t blocksOf(uint32_t cellLayers) const
    {
        const std::array<uint32_t, 3>& block = options_.blockSize;
        uint32_t planes = cellLayers + 1;
        return uint64_t((grid_.dims[0] + block[0] - 1) / block[0]) * ((grid_.dims[1] + block[1] - 1) / block[1]) *
               ((planes + block[2] - 1) / block[2]);
    }
};

} // namespace

std::unique_ptr<SlabMethod> createBlockSlabMethod(const Context& context, const Volume& grid,
                                                  const ExtractOptions& options)
{
    return std::make_unique<BlockSlabMethod>(context, grid, options);
}

} // namespace isoscope
