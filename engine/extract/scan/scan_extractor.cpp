#include "extract/scan/scan_extractor.h"

#include <algorithm>

#include "compute/compact.h"
#include "compute/scan.h"
#include "core/context.h"
#include "core/error.h"
#include "core/gpu_timer.h"
#include "core/shader.h"
#include "extract/case_table_gpu.h"
#include "extract/scan/slab_plan.h"
#include "volume/gpu_volume.h"

namespace isoscope {

namespace {

constexpr uint32_t kGenerateWorkgroupSize = 64;
constexpr uint32_t kSlabFirst = 1, kSlabLast = 2;

// The push constants of classify and generate (scan_grid.glsl, Grid).
struct GridPush {
    uint32_t nx, ny, nz, z0, planes, slabFlags, scalarType;
    float iso;
    float origin[3];
    float spacing[3];
};

// Times a pass as a scope of `timer` when there is one.
class Scope {
public:
    Scope(VkCommandBuffer cmd, GpuTimer* timer, const char* name) : cmd_(cmd), timer_(timer)
    {
        if (timer_)
            id_ = timer_->begin(cmd_, name);
    }
    ~Scope()
    {
        if (timer_)
            timer_->end(cmd_, id_);
    }

private:
    VkCommandBuffer cmd_;
    GpuTimer* timer_;
    uint32_t id_ = 0;
};

class ScanExtractor final : public GpuExtractor {
public:
    ScanExtractor(Context& context, const FieldSource& field, const ExtractOptions& options)
        : GpuExtractor(*field.volume), context_(context), volume_(*field.volume), gpuVolume_(*field.gpuVolume),
          weld_(options.weld),
          plan_(planSlabs(context, volume_.dims,
                          options.budgetBytes ? options.budgetBytes : context.allocator().availableDeviceBytes() / 2,
                          options.weld)),
          classify_(context, loadShader("extract/scan/classify"),
                    {{"WORKGROUP_SIZE", kGenerateWorkgroupSize}, {"WELD", weld_ ? 1u : 0u}}),
          prepare_(context, loadShader("extract/scan/prepare_generate")),
          generate_(context, loadShader("extract/scan/generate"),
                    {{"WORKGROUP_SIZE", kGenerateWorkgroupSize}, {"WELD", weld_ ? 1u : 0u}}),
          scan_(context, 2, plan_.maxSlabPoints), compact_(context, 2, plan_.maxSlabPoints)
    {
        if (!gpuVolume_.buffer())
            fail("the scan method reads the volume's storage buffer, which was not uploaded (engine bug)");
        Allocator& allocator = context.allocator();
        auto storage = [&](uint64_t bytes, VkBufferUsageFlags extra, const char* what) {
            return allocator.createBuffer(std::max<uint64_t>(bytes, 16), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | extra,
                                          MemoryUsage::DeviceLocal, std::string("scan method ") + what);
        };
        caseTable_ = createCaseTableBuffer(context);
        pointCounts_ = storage(plan_.maxSlabPoints * 8, 0, "point counts and offsets");
        activePoints_ = storage(plan_.maxSlabPoints * 4, 0, "compacted points");
        activeCount_ = storage(8, 0, "compacted point count");
        slabTotals_ = storage(16, 0, "slab totals");
        slabBase_ = storage(8, 0, "slab base");
        dispatchArgs_ = storage(12, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, "generate dispatch");
        uint64_t seamBytes = plan_.slabCount > 1 && weld_ ? uint64_t(volume_.dims[0]) * volume_.dims[1] * 8 : 16;
        for (Buffer& seam : seams_)
            seam = storage(seamBytes, 0, "seam plane");
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
        uint64_t bytes = scan_.scratchBytes() + compact_.scratchBytes();
        for (const Buffer* b : {&caseTable_, &pointCounts_, &activePoints_, &activeCount_, &slabTotals_, &slabBase_,
                                &dispatchArgs_, &seams_[0], &seams_[1]})
            bytes += b->allocated;
        return bytes;
    }

    void record(VkCommandBuffer cmd, float iso, const GpuMesh& mesh, GpuTimer* timer) override
    {
        // The buffers of a previous extraction in this command buffer are
        // rewritten: order those reads and writes first.
        computeToComputeBarrier(cmd);
        // Per-pass scopes when there is one slab; one scope for many, so the
        // timer's scope count does not grow with the volume.
        GpuTimer* passTimer = plan_.slabCount == 1 ? timer : nullptr;
        Scope all(cmd, plan_.slabCount > 1 ? timer : nullptr, "slabs");
        for (uint32_t slab = 0; slab < plan_.slabCount; ++slab)
            recordSlab(cmd, iso, mesh, slab, passTimer);
    }

private:
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
        return push;
    }

    void recordSlab(VkCommandBuffer cmd, float iso, const GpuMesh& mesh, uint32_t slab, GpuTimer* timer)
    {
        GridPush push = gridPush(iso, slab);
        uint64_t points = uint64_t(push.nx) * push.ny * push.planes;
        {
            Scope scope(cmd, timer, "classify");
            classify_.bind(cmd, {{gpuVolume_.buffer().buffer}, {caseTable_.buffer}, {pointCounts_.buffer}}, &push,
                           sizeof push);
            uint32_t groups = groupCount(points, kGenerateWorkgroupSize);
            uint32_t x = std::min<uint32_t>(groups, 65535);
            classify_.dispatch(cmd, x, (groups + x - 1) / x);
            computeToComputeBarrier(cmd);
        }
        {
            Scope scope(cmd, timer, "compact");
            compact_.record(cmd, {pointCounts_.buffer}, points, {activePoints_.buffer}, {activeCount_.buffer});
        }
        {
            Scope scope(cmd, timer, "scan");
            scan_.record(cmd, {pointCounts_.buffer}, {pointCounts_.buffer}, points, {slabTotals_.buffer});
        }
        {
            Scope scope(cmd, timer, "prepare");
            struct {
                uint32_t workgroupSize, maxGroupsX;
            } preparePush{kGenerateWorkgroupSize, std::min<uint32_t>(65535, context_.info().maxComputeWorkGroupCount[0])};
            prepare_.bind(cmd, {{activeCount_.buffer}, {slabTotals_.buffer}, {slabBase_.buffer}, {dispatchArgs_.buffer},
                                {mesh.vertices.buffer}, {mesh.indices.buffer}, {mesh.counters.buffer}},
                          &preparePush, sizeof preparePush);
            prepare_.dispatch(cmd, 1);
            computeOutputBarrier(cmd);
        }
        {
            Scope scope(cmd, timer, "generate");
            const Buffer& seamBelow = seams_[slab % 2];
            const Buffer& seamAbove = seams_[(slab + 1) % 2];
            generate_.bind(cmd, {{gpuVolume_.buffer().buffer}, {caseTable_.buffer}, {pointCounts_.buffer},
                                 {activePoints_.buffer}, {activeCount_.buffer}, {slabBase_.buffer}, {seamBelow.buffer},
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
    SlabPlan plan_;
    ComputeProgram classify_;
    ComputeProgram prepare_;
    ComputeProgram generate_;
    ExclusiveScan scan_;
    StreamCompaction compact_;
    Buffer caseTable_;
    Buffer pointCounts_;
    Buffer activePoints_;
    Buffer activeCount_;
    Buffer slabTotals_;
    Buffer slabBase_;
    Buffer dispatchArgs_;
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
