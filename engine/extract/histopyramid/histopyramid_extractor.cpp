#include "extract/histopyramid/histopyramid_extractor.h"

#include <algorithm>

#include "compute/scan_passes.h"
#include "core/context.h"
#include "core/error.h"
#include "core/gpu_timer.h"
#include "core/shader.h"
#include "core/memory.h"
#include "core/transfer.h"
#include "extract/case_table_gpu.h"
#include "extract/histopyramid/histopyramid_levels.h"
#include "volume/gpu_volume.h"

namespace isoscope {

namespace {

constexpr uint32_t kWorkgroupSize = 64; // base.comp and reduce.comp fix it; the traversal passes take it too

// The push constants of every pass (histopyramid_common.glsl, Grid).
struct GridPush {
    uint32_t nx, ny, nz, topLevel, scalarType;
    float iso;
    float origin[3];
    float spacing[3];
    uint32_t level;
};

// The indirect dispatches prepare.comp writes and the counts the passes read.
constexpr uint64_t kDispatchBytes = 40;
constexpr uint64_t kTriangleDispatchOffset = 16;

class HistoPyramidExtractor final : public GpuExtractor {
public:
    HistoPyramidExtractor(Context& context, const FieldSource& field, const ExtractOptions& options)
        : GpuExtractor(*field.volume), context_(context), volume_(*field.volume), gpuVolume_(*field.gpuVolume),
          weld_(options.weld), shape_(histoPyramidShape(field.volume->dims)),
          base_(context, loadShader("extract/histopyramid/base")),
          reduce_(context, loadShader("extract/histopyramid/reduce")),
          prepare_(context, loadShader("extract/histopyramid/prepare"),
                   {{"WORKGROUP_SIZE", kWorkgroupSize}, {"WELD", weld_ ? 1u : 0u}, {"MAX_GROUPS_X", maxGroupsX()}}),
          vertices_(context, loadShader("extract/histopyramid/vertices"), {{"WORKGROUP_SIZE", kWorkgroupSize}}),
          triangles_(context, loadShader("extract/histopyramid/triangles"),
                     {{"WORKGROUP_SIZE", kWorkgroupSize}, {"WELD", weld_ ? 1u : 0u}})
    {
        if (!gpuVolume_.buffer())
            fail("the histopyramid method reads the volume's storage buffer, which was not uploaded (engine bug)");
        for (uint32_t d : volume_.dims)
            if (d < 2)
                fail("the histopyramid method needs at least 2 samples along each axis");
        uint64_t bytes = shape_.totalWords * 4;
        if (bytes > context.info().maxStorageBufferRange)
            fail("the histopyramid method's pyramid for " + std::to_string(volume_.dims[0]) + "x" +
                 std::to_string(volume_.dims[1]) + "x" + std::to_string(volume_.dims[2]) + " points takes " +
                 formatBytes(bytes) + ", more than one storage binding (" +
                 formatBytes(context.info().maxStorageBufferRange) +
                 ") on this device: use --method block or --method scan for a volume this large");
        Allocator& allocator = context.allocator();
        pyramid_ = allocator.createBuffer(std::max<uint64_t>(bytes, 16), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                          MemoryUsage::DeviceLocal, "histopyramid levels");
        dispatch_ = allocator.createBuffer(kDispatchBytes,
                                           VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                                           MemoryUsage::DeviceLocal, "histopyramid dispatch");
        std::vector<uint32_t> table;
        for (const HistoPyramidLevel& level : shape_.levels)
            table.insert(table.end(), {level.dims[0], level.dims[1], level.dims[2], uint32_t(level.firstWord)});
        levels_ = allocator.createBuffer(table.size() * 4,
                                         VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                         MemoryUsage::DeviceLocal, "histopyramid level table");
        uploadToBuffer(context, levels_, table.data(), table.size() * 4);
        caseTable_ = createCaseTableBuffer(context);
    }

    std::array<uint64_t, 2> estimateCapacity(float iso) const override
    {
        std::array<uint64_t, 2> estimate = GpuExtractor::estimateCapacity(iso);
        if (!weld_)
            estimate[0] = 3 * estimate[1];
        return estimate;
    }

    uint64_t auxiliaryBytes() const override { return pyramid_.allocated + dispatch_.allocated + levels_.allocated; }
    uint64_t tableBytes() const override { return caseTable_.allocated; }

    std::vector<std::pair<std::string, uint64_t>> workCounts() override
    {
        return {{"levels", shape_.topLevel + 1}, {"pyramid_bytes", shape_.totalWords * 4}};
    }

    void record(VkCommandBuffer cmd, float iso, const GpuMesh& mesh, GpuTimer* timer) override
    {
        // The buffers of a previous extraction in this command buffer are
        // rewritten: order those reads and writes first.
        computeToComputeBarrier(cmd);
        GridPush push = gridPush(iso);
        DescriptorInfo volume(gpuVolume_.buffer().buffer);
        {
            GpuTimerScope scope(cmd, timer, "base");
            base_.bind(cmd, {volume, {levels_.buffer}, {pyramid_.buffer}, {caseTable_.buffer}}, &push, sizeof push);
            dispatchInvocations(cmd, base_, entriesOf(1));
            computeToComputeBarrier(cmd);
        }
        {
            GpuTimerScope scope(cmd, timer, "reduce");
            for (uint32_t l = 2; l < shape_.topLevel; ++l) {
                push.level = l;
                reduce_.bind(cmd, {volume, {levels_.buffer}, {pyramid_.buffer}}, &push, sizeof push);
                dispatchInvocations(cmd, reduce_, entriesOf(l));
                computeToComputeBarrier(cmd);
            }
        }
        std::initializer_list<DescriptorInfo> traversal = {volume, {levels_.buffer}, {pyramid_.buffer},
                                                           {mesh.vertices.buffer}, {mesh.indices.buffer},
                                                           {mesh.counters.buffer}, {dispatch_.buffer}};
        {
            GpuTimerScope scope(cmd, timer, "prepare");
            prepare_.bind(cmd, traversal, &push, sizeof push);
            prepare_.dispatch(cmd, 1);
            computeOutputBarrier(cmd);
        }
        if (weld_) {
            GpuTimerScope scope(cmd, timer, "vertices");
            vertices_.bind(cmd, traversal, &push, sizeof push);
            vkCmdDispatchIndirect(cmd, dispatch_.buffer, 0);
        }
        {
            GpuTimerScope scope(cmd, timer, "triangles");
            triangles_.bind(cmd,
                            {volume, {levels_.buffer}, {pyramid_.buffer}, {mesh.vertices.buffer},
                             {mesh.indices.buffer}, {mesh.counters.buffer}, {dispatch_.buffer}, {caseTable_.buffer}},
                            &push, sizeof push);
            vkCmdDispatchIndirect(cmd, dispatch_.buffer, kTriangleDispatchOffset);
        }
    }

private:
    uint32_t maxGroupsX() const { return std::min<uint32_t>(65535, context_.info().maxComputeWorkGroupCount[0]); }

    // The entries of level l: eight per node of level l + 1.
    uint64_t entriesOf(uint32_t l) const
    {
        const std::array<uint32_t, 3>& d = shape_.levels[l + 1].dims;
        return 8 * uint64_t(d[0]) * d[1] * d[2];
    }

    void dispatchInvocations(VkCommandBuffer cmd, const ComputeProgram& program, uint64_t invocations) const
    {
        uint64_t groups = (invocations + kWorkgroupSize - 1) / kWorkgroupSize;
        uint32_t x = uint32_t(std::min<uint64_t>(groups, maxGroupsX()));
        program.dispatch(cmd, x, uint32_t((groups + x - 1) / x));
    }

    GridPush gridPush(float iso) const
    {
        GridPush push{};
        push.nx = volume_.dims[0];
        push.ny = volume_.dims[1];
        push.nz = volume_.dims[2];
        push.topLevel = shape_.topLevel;
        push.scalarType = uint32_t(volume_.type);
        push.iso = iso;
        for (int i = 0; i < 3; ++i) {
            push.origin[i] = float(volume_.origin[i]);
            push.spacing[i] = float(volume_.spacing[i]);
        }
        return push;
    }

    Context& context_;
    const Volume& volume_;
    const GpuVolume& gpuVolume_;
    bool weld_;
    HistoPyramidShape shape_;
    ComputeProgram base_;
    ComputeProgram reduce_;
    ComputeProgram prepare_;
    ComputeProgram vertices_;
    ComputeProgram triangles_;
    Buffer pyramid_;
    Buffer dispatch_;
    Buffer levels_;
    Buffer caseTable_;
};

} // namespace

std::unique_ptr<GpuExtractor> createHistoPyramidExtractor(Context& context, const FieldSource& field,
                                                          const ExtractOptions& options)
{
    if (!field.volume || !field.gpuVolume)
        fail("the histopyramid method needs a stored volume" +
             std::string(options.analyticField.empty() ? "" : " (it does not evaluate --analytic fields)"));
    return std::make_unique<HistoPyramidExtractor>(context, field, options);
}

} // namespace isoscope
