#include "extract/scan/scan_extractor.h"

#include <algorithm>
#include <optional>

#include "compute/block_sum_scan.h"
#include "compute/scan_passes.h"
#include "core/context.h"
#include "core/error.h"
#include "core/shader.h"
#include "core/transfer.h"
#include "extract/scan/count.h"
#include "extract/scan/generate.h"
#include "extract/scan/list.h"
#include "extract/scan/prepare_generate.h"
#include "extract/scan/slab_plan.h"
#include "graph/render_graph.h"
#include "volume/gpu_volume.h"

namespace isoscope {

namespace {

class ScanExtractor final : public GpuExtractor {
public:
    ScanExtractor(Context& context, const FieldSource& field, const ExtractOptions& options)
        : GpuExtractor(context, *field.volume, !options.weld), context_(context), volume_(*field.volume),
          gpuVolume_(*field.gpuVolume), weld_(options.weld),
          bindings_{uint32_t(scalarSize(field.volume->type)), options.maxBindingBytes},
          budgetBytes_(options.budgetBytes ? options.budgetBytes : context.allocator().availableDeviceBytes() / 2),
          tiling_(scanTiling(context)), columnTiles_(options.scanColumnTiles),
          listWorkgroup_(options.scanListWorkgroup), count_(context, tileSpec()), prepare_(context),
          generate_(context, weld_, options.streamedSlabs), streamedSlabs_(options.streamedSlabs),
          volumePlanes_(field.volume->dims[2])
    {
        listNeeded_ = context.allocator().createBuffer(16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                                               VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                                       MemoryUsage::DeviceLocal, "scan method list entries needed");
        plan(planSlabs(context, volume_.dims, budgetBytes_, weld_, 0, bindings_));
    }

    uint64_t auxiliaryBytes() const override { return listNeeded_.allocated; }

    // A streamed slab: its grid's planes lie at firstPlane.. of the whole
    // volume, and plane 0 of the bound buffer at firstPlane - imagePlanesBelow.
    // The passes work in the whole volume's z, so positions and the
    // differences at the volume's ends are the in-core extraction's.
    void placeSlab(const SlabPlacement& placement) override
    {
        if (!streamedSlabs_)
            GpuExtractor::placeSlab(placement);
        firstPlane_ = uint32_t(placement.firstPlane);
        imagePlanesBelow_ = placement.imagePlanesBelow;
        volumePlanes_ = placement.volumePlanes;
        edgeCodes_ = placement.edgeCodes;
        placeSlabs(); // read by the passes of graphs already built when they record again
    }

    std::vector<std::pair<std::string, uint64_t>> workCounts() override
    {
        uint64_t columnTiles = plan_.slabCount ? scanColumnTiles(tiling_, volume_.dims, plan_.cellLayersPerSlab + 1ull,
                                                                 columnTiles_)
                                               : 0;
        return {{"slabs", plan_.slabCount},
                {"list_capacity", plan_.listCapacity},
                {"list_entries_needed", readListNeeded()},
                {"count_column_tiles", columnTiles}, // of the thickest slab
                {"list_workgroup", listSize_}};
    }

    // The list held fewer occupied points than a slab has: plan again with
    // lists that hold them (thinner slabs where that no longer fits).
    bool growAfterOverflow() override
    {
        uint64_t needed = readListNeeded();
        if (needed <= plan_.listCapacity)
            return false;
        plan(planSlabs(context_, volume_.dims, budgetBytes_, weld_, needed, bindings_));
        return true;
    }

protected:
    // Per slab: count, scan, list, prepare, generate (slab_plan.h).
    void addPasses(RenderGraph& graph, const MeshBuffers& mesh, const float& iso, const std::string& prefix) override
    {
        ScanResources r;
        r.volume = importVolumeBuffer(graph, gpuVolume_, prefix + "volume samples");
        r.caseTable = importCaseTable(graph, prefix);
        r.listNeeded = graph.importBuffer(prefix + "list entries needed", listNeeded_.buffer);
        // Work buffers of one frame: transients, reused slab after slab.
        auto transient = [&](const char* what, uint64_t bytes) {
            return graph.createBuffer(prefix + what, std::max<uint64_t>(bytes, 16));
        };
        r.blockSums = transient("scan block sums", blockSums_->scratchBytes());
        r.spanBits = transient("span bits", plan_.maxSlabTiles * tiling_.tileBitWords() * 4);
        r.rowStarts = transient("row starts", (plan_.maxSlabRows + 1) * 4);
        r.list = transient("occupied-point list", std::max<uint64_t>(plan_.listCapacity, 1) * 16);
        r.slabTotals = transient("slab totals", 24);
        r.slabBase = transient("slab base", 8);
        r.dispatch = transient("generate dispatch", 12);
        uint64_t seamBytes = plan_.slabCount > 1 && weld_ ? uint64_t(volume_.dims[0]) * volume_.dims[1] * 8 : 16;
        r.seams[0] = transient("seam plane 0", seamBytes);
        r.seams[1] = transient("seam plane 1", seamBytes);
        r.vertices = mesh.vertices;
        r.indices = mesh.indices;
        r.counters = mesh.counters;
        r.edgeCodes = edgeCodes_ != kNoResource ? edgeCodes_ : transient("unused vertex edge codes", 16);
        placeSlabs();
        for (const ScanSlab& slab : slabs_) {
            count_.add(graph, r, *blockSums_, slab, iso);
            blockSums_->addPasses(graph, prefix + "scan", r.blockSums, slab.tiles, {r.slabTotals, 0});
            list_->add(graph, r, *blockSums_, slab, iso);
            prepare_.add(graph, r, slab, ScanGeneratePass::kWorkgroupSize);
            generate_.add(graph, r, slab, iso);
        }
    }

private:
    SpecValues tileSpec() const
    {
        return {{"WORKGROUP_SIZE", tiling_.workgroupSize},
                {"ITEMS", tiling_.items},
                {"WELD", weld_ ? 1u : 0u},
                {"SCALAR_TYPE", countScalarType(volume_.type)}};
    }

    // A count pipeline of its own for uint8 and float32 volumes, with only
    // that type's line code in it: faster on every such volume measured. The
    // 16-bit types keep one for both, as the list pass does for all types: a
    // pipeline per type made the fMRI volume's count and the engine CT's
    // list slower (docs/BENCHMARKS.md, call 4).
    static uint32_t countScalarType(ScalarType type)
    {
        constexpr uint32_t kAnyScalarType = 4; // count.comp's ANY_SCALAR_TYPE
        return type == ScalarType::UInt8 || type == ScalarType::Float32 ? uint32_t(type) : kAnyScalarType;
    }

    void plan(const SlabPlan& plan)
    {
        plan_ = plan;
        // The list pass's workgroup by the slab's tiles (scanListWorkgroup): made again only where that changed.
        uint32_t size = scanListWorkgroup(tiling_, context_.info().subgroupSize, plan_.maxSlabTiles, listWorkgroup_);
        if (!list_ || listSize_ != size)
            list_.emplace(context_, SpecValues{{"WORKGROUP_SIZE", size},
                                               {"ITEMS", tiling_.tileSpans / size},
                                               {"WELD", weld_ ? 1u : 0u}});
        listSize_ = size;
        blockSums_.emplace(context_, scanLayout(context_, 1, {}), 3, std::max<uint64_t>(plan_.maxSlabTiles, 1),
                           "scan method");
    }

    uint64_t readListNeeded() { return plan_.slabCount ? downloadBufferAs<uint32_t>(context_, listNeeded_, 1)[0] : 0; }

    // The plan's slabs where the extractor's grid lies now, in place: the
    // passes hold references to them (the array is only resized by a new
    // plan, after which every graph is built again).
    void placeSlabs()
    {
        if (slabs_.size() != plan_.slabCount)
            slabs_.resize(plan_.slabCount);
        for (uint32_t index = 0; index < plan_.slabCount; ++index)
            slabs_[index] = slabAt(index);
    }

    ScanSlab slabAt(uint32_t index) const
    {
        ScanSlab slab;
        slab.index = index;
        ScanGridPush& push = slab.push;
        uint32_t z0 = index * plan_.cellLayersPerSlab; // of this extractor's grid
        uint32_t layers = std::min(plan_.cellLayersPerSlab, volume_.dims[2] - 1 - z0);
        setGridPush(push, volume_);
        push.nz = volumePlanes_;
        push.z0 = firstPlane_ + z0;
        push.planes = layers + 1;
        push.slabFlags = (index == 0 ? kSlabFirst : 0) | (index + 1 == plan_.slabCount ? kSlabLast : 0);
        push.listCapacity = uint32_t(plan_.listCapacity);
        // The bound buffer's planes: a streamed slab's begin imagePlanesBelow_ under its grid.
        SlabVolumeRange range = slabVolumeRange(context_, gpuVolume_.dims(), bindings_.sampleBytes,
                                                imagePlanesBelow_ + z0, push.planes);
        push.volumeFirstPlane = firstPlane_ - imagePlanesBelow_ + range.firstPlane;
        push.volumeFirstSample = range.firstSample;
        slab.volumeOffset = range.offset;
        slab.volumeBytes = range.bytes;
        slab.tiles = scanSlabTiles(tiling_, volume_.dims, push.planes);
        push.columnTiles = scanColumnTiles(tiling_, volume_.dims, push.planes, columnTiles_);
        slab.countGroups = scanCountGroups(tiling_, volume_.dims, push.planes, push.columnTiles);
        return slab;
    }

    Context& context_;
    const Volume& volume_;
    const GpuVolume& gpuVolume_;
    bool weld_;
    SlabBindings bindings_;
    uint64_t budgetBytes_;
    ScanTiling tiling_;
    uint32_t columnTiles_, listWorkgroup_; // ExtractOptions' (0: by the slab's size)
    SlabPlan plan_;
    ScanCountPass count_;
    std::optional<ScanListPass> list_;
    uint32_t listSize_ = 0;
    ScanPreparePass prepare_;
    ScanGeneratePass generate_;
    std::vector<ScanSlab> slabs_;           // the passes' slabs (placeSlabs)
    std::optional<BlockSumScan> blockSums_; // per tile: vertices, triangles, occupied points; then their offsets
    Buffer listNeeded_;
    bool streamedSlabs_;
    uint32_t volumePlanes_;              // the whole volume's (a streamed slab's grid is part of it)
    uint32_t firstPlane_ = 0, imagePlanesBelow_ = 0;
    ResourceId edgeCodes_ = kNoResource; // streamed slabs: written by generate
};

} // namespace

std::unique_ptr<GpuExtractor> createScanExtractor(Context& context, const FieldSource& field,
                                                  const ExtractOptions& options)
{
    requireVolumeBuffer(field, options, "scan");
    return std::make_unique<ScanExtractor>(context, field, options);
}

} // namespace isoscope
