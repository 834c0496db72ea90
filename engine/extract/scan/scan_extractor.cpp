#include "extract/scan/scan_extractor.h"

#include <algorithm>
#include <optional>

#include "compute/block_sum_scan.h"
#include "compute/scan_passes.h"
#include "core/context.h"
#include "core/error.h"
#include "core/gpu_timer.h"
#include "core/shader.h"
#include "core/transfer.h"
#include "extract/case_table_gpu.h"
#include "extract/scan/slab_plan.h"
#include "volume/gpu_volume.h"

namespace isoscope {

namespace {

constexpr uint32_t kGenerateWorkgroupSize = 64;
constexpr uint32_t kSlabFirst = 1, kSlabLast = 2;

// The push constants of count, list and generate (scan_grid.glsl, Grid).
struct GridPush {
    uint32_t nx, ny, nz, z0, planes, slabFlags, scalarType;
    float iso;
    float origin[3];
    float spacing[3];
    uint32_t listCapacity;
    uint32_t volumeFirstPlane, volumeFirstSample; // the bound planes of the volume (SlabVolumeRange)
};

class ScanExtractor final : public GpuExtractor {
public:
    ScanExtractor(Context& context, const FieldSource& field, const ExtractOptions& options)
        : GpuExtractor(*field.volume), context_(context), volume_(*field.volume), gpuVolume_(*field.gpuVolume),
          weld_(options.weld), bindings_{uint32_t(scalarSize(field.volume->type)), options.maxBindingBytes},
          budgetBytes_(options.budgetBytes ? options.budgetBytes : context.allocator().availableDeviceBytes() / 2),
          tiling_(scanTiling(context)),
          count_(context, loadShader("extract/scan/count"), tileSpec()),
          listPass_(context, loadShader("extract/scan/list"), tileSpec()),
          prepare_(context, loadShader("extract/scan/prepare_generate")),
          generate_(context, loadShader("extract/scan/generate"),
                    {{"WORKGROUP_SIZE", kGenerateWorkgroupSize}, {"WELD", weld_ ? 1u : 0u}})
    {
        if (!gpuVolume_.buffer())
            fail("the scan method reads the volume's storage buffer, which was not uploaded (engine bug)");
        caseTable_ = createCaseTableBuffer(context);
        allocate(planSlabs(context, volume_.dims, budgetBytes_, weld_, 0, bindings_));
    }

    std::array<uint64_t, 2> estimateCapacity(float iso) const override
    {
        std::array<uint64_t, 2> estimate = GpuExtractor::estimateCapacity(iso);
        if (!weld_)
            estimate[0] = 3 * estimate[1];
        return estimate;
    }

    uint64_t auxiliaryBytes() const override
    {
        uint64_t bytes = blockSums_->scratchBytes();
        for (const Buffer* b : {&rowStarts_, &listEntries_, &slabTotals_, &slabBase_, &dispatchArgs_,
                                &listNeeded_, &seams_[0], &seams_[1]})
            bytes += b->allocated;
        return bytes;
    }

    uint64_t tableBytes() const override { return caseTable_.allocated; }

    std::vector<std::pair<std::string, uint64_t>> workCounts() override
    {
        return {{"slabs", plan_.slabCount}, {"list_capacity", plan_.listCapacity},
                {"list_entries_needed", readListNeeded()}};
    }

    // The list held fewer occupied points than a slab has: plan again with
    // lists that hold them (thinner slabs where that no longer fits).
    bool growAfterOverflow() override
    {
        uint64_t needed = readListNeeded();
        if (needed <= plan_.listCapacity)
            return false;
        releaseWorkBuffers();
        allocate(planSlabs(context_, volume_.dims, budgetBytes_, weld_, needed, bindings_));
        return true;
    }

    void record(VkCommandBuffer cmd, float iso, const GpuMesh& mesh, GpuTimer* timer) override
    {
        // The buffers of a previous extraction in this command buffer are
        // rewritten: order those reads and writes first.
        computeToComputeBarrier(cmd);
        // Per-pass scopes when there is one slab; one scope for many, so the
        // timer's scope count does not grow with the volume.
        GpuTimer* passTimer = plan_.slabCount == 1 ? timer : nullptr;
        GpuTimerScope all(cmd, plan_.slabCount > 1 ? timer : nullptr, "slabs");
        for (uint32_t slab = 0; slab < plan_.slabCount; ++slab)
            recordSlab(cmd, iso, mesh, slab, passTimer);
    }

private:
    SpecValues tileSpec() const
    {
        return {{"WORKGROUP_SIZE", tiling_.workgroupSize}, {"ITEMS", tiling_.items}, {"WELD", weld_ ? 1u : 0u}};
    }

    void allocate(const SlabPlan& plan)
    {
        plan_ = plan;
        Allocator& allocator = context_.allocator();
        auto storage = [&](uint64_t bytes, VkBufferUsageFlags extra, const char* what) {
            return allocator.createBuffer(std::max<uint64_t>(bytes, 16), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | extra,
                                          MemoryUsage::DeviceLocal, std::string("scan method ") + what);
        };
        ScanLayout layout = scanLayout(context_, 1, {});
        blockSums_.emplace(context_, layout, 3, std::max<uint64_t>(plan_.maxSlabTiles, 1), "scan method");
        rowStarts_ = storage((plan_.maxSlabRows + 1) * 4, 0, "row starts");
        listEntries_ = storage(std::max<uint64_t>(plan_.listCapacity, 1) * 16, 0, "occupied-point list");
        slabTotals_ = storage(24, 0, "slab totals");
        slabBase_ = storage(8, 0, "slab base");
        dispatchArgs_ = storage(12, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, "generate dispatch");
        listNeeded_ = storage(4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, "list entries needed");
        uint64_t seamBytes = plan_.slabCount > 1 && weld_ ? uint64_t(volume_.dims[0]) * volume_.dims[1] * 8 : 16;
        for (Buffer& seam : seams_)
            seam = storage(seamBytes, 0, "seam plane");
    }

    void releaseWorkBuffers()
    {
        blockSums_.reset();
        for (Buffer* b : {&rowStarts_, &listEntries_, &slabTotals_, &slabBase_, &dispatchArgs_, &listNeeded_,
                          &seams_[0], &seams_[1]})
            *b = Buffer{};
    }

    uint64_t readListNeeded() { return plan_.slabCount ? downloadBufferAs<uint32_t>(context_, listNeeded_, 1)[0] : 0; }

    GridPush gridPush(float iso, uint32_t slab) const
    {
        uint32_t z0 = slab * plan_.cellLayersPerSlab;
        uint32_t layers = std::min(plan_.cellLayersPerSlab, volume_.dims[2] - 1 - z0);
        GridPush push{};
        push.nx = volume_.dims[0];
        push.ny = volume_.dims[1];
        push.nz = volume_.dims[2];
        push.z0 = z0;
        push.planes = layers + 1;
        push.slabFlags = (slab == 0 ? kSlabFirst : 0) | (slab + 1 == plan_.slabCount ? kSlabLast : 0);
        push.scalarType = uint32_t(volume_.type);
        push.iso = iso;
        for (int i = 0; i < 3; ++i) {
            push.origin[i] = float(volume_.origin[i]);
            push.spacing[i] = float(volume_.spacing[i]);
        }
        push.listCapacity = uint32_t(plan_.listCapacity);
        return push;
    }

    void dispatchTiles(VkCommandBuffer cmd, const ComputeProgram& program, uint64_t tiles) const
    {
        uint32_t x = uint32_t(std::min<uint64_t>(tiles, std::min<uint32_t>(65535, context_.info().maxComputeWorkGroupCount[0])));
        program.dispatch(cmd, x, uint32_t((tiles + x - 1) / x));
    }

    void recordSlab(VkCommandBuffer cmd, float iso, const GpuMesh& mesh, uint32_t slab, GpuTimer* timer)
    {
        GridPush push = gridPush(iso, slab);
        SlabVolumeRange range = slabVolumeRange(context_, volume_.dims, bindings_.sampleBytes, push.z0, push.planes);
        push.volumeFirstPlane = range.firstPlane;
        push.volumeFirstSample = range.firstSample;
        DescriptorInfo volumePlanes(gpuVolume_.buffer().buffer, range.offset, range.bytes);
        uint64_t quads = (uint64_t(push.nx) + 3) / 4 * push.ny * push.planes;
        uint64_t tiles = (quads + tiling_.tileQuads - 1) / tiling_.tileQuads;
        {
            GpuTimerScope scope(cmd, timer, "count");
            // The volume's planes three times: as words, 16-byte and 8-byte vectors (classify_quads.glsl).
            count_.bind(cmd, {volumePlanes, {caseTable_.buffer}, blockSums_->level0(), volumePlanes, volumePlanes},
                        &push, sizeof push);
            dispatchTiles(cmd, count_, tiles);
            computeToComputeBarrier(cmd);
        }
        {
            GpuTimerScope scope(cmd, timer, "scan");
            blockSums_->record(cmd, tiles, {slabTotals_.buffer});
        }
        {
            GpuTimerScope scope(cmd, timer, "list");
            listPass_.bind(cmd, {volumePlanes, {caseTable_.buffer}, blockSums_->level0(), {listEntries_.buffer},
                                 {rowStarts_.buffer}, {slabTotals_.buffer}, volumePlanes, volumePlanes},
                           &push, sizeof push);
            dispatchTiles(cmd, listPass_, tiles);
        }
        {
            GpuTimerScope scope(cmd, timer, "prepare");
            struct {
                uint32_t workgroupSize, maxGroupsX, listCapacity, firstSlab;
            } preparePush{kGenerateWorkgroupSize, std::min<uint32_t>(65535, context_.info().maxComputeWorkGroupCount[0]),
                          push.listCapacity, slab == 0 ? 1u : 0u};
            prepare_.bind(cmd, {{slabTotals_.buffer}, {slabBase_.buffer}, {dispatchArgs_.buffer}, {listNeeded_.buffer},
                                {mesh.vertices.buffer}, {mesh.indices.buffer}, {mesh.counters.buffer}},
                          &preparePush, sizeof preparePush);
            prepare_.dispatch(cmd, 1);
            computeOutputBarrier(cmd); // list and row starts too: prepare wrote no barrier of its own after list
        }
        {
            GpuTimerScope scope(cmd, timer, "generate");
            const Buffer& seamBelow = seams_[slab % 2];
            const Buffer& seamAbove = seams_[(slab + 1) % 2];
            generate_.bind(cmd, {volumePlanes, {caseTable_.buffer}, {listEntries_.buffer},
                                 {rowStarts_.buffer}, {slabTotals_.buffer}, {slabBase_.buffer}, {seamBelow.buffer},
                                 {seamAbove.buffer}, {mesh.vertices.buffer}, {mesh.indices.buffer},
                                 {mesh.counters.buffer}},
                           &push, sizeof push);
            vkCmdDispatchIndirect(cmd, dispatchArgs_.buffer, 0);
            computeToComputeBarrier(cmd); // the next slab rewrites what generate read
        }
    }

    Context& context_;
    const Volume& volume_;
    const GpuVolume& gpuVolume_;
    bool weld_;
    SlabBindings bindings_;
    uint64_t budgetBytes_;
    ScanTiling tiling_;
    SlabPlan plan_;
    ComputeProgram count_;
    ComputeProgram listPass_;
    ComputeProgram prepare_;
    ComputeProgram generate_;
    std::optional<BlockSumScan> blockSums_; // per tile: vertices, triangles, occupied points; then their offsets
    Buffer caseTable_;
    Buffer rowStarts_;
    Buffer listEntries_;
    Buffer slabTotals_;
    Buffer slabBase_;
    Buffer dispatchArgs_;
    Buffer listNeeded_;
    Buffer seams_[2];
};

} // namespace

std::unique_ptr<GpuExtractor> createScanExtractor(Context& context, const FieldSource& field,
                                                  const ExtractOptions& options)
{
    if (!field.volume || !field.gpuVolume)
        fail("the scan method needs a stored volume" +
             std::string(options.analyticField.empty() ? "" : " (it does not evaluate --analytic fields)"));
    return std::make_unique<ScanExtractor>(context, field, options);
}

} // namespace isoscope
