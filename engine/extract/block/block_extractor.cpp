#include "extract/block/block_extractor.h"

#include <algorithm>
#include <bit>
#include <optional>
#include <string>

#include "core/barrier.h"
#include "core/context.h"
#include "core/error.h"
#include "core/gpu_timer.h"
#include "core/shader.h"
#include "core/transfer.h"
#include "extract/block/block_value_ranges.h"
#include "extract/case_table_gpu.h"
#include "volume/gpu_volume.h"
#include "volume/synthetic.h"

namespace isoscope {

namespace {

struct State {
    uint32_t activeCount;
    VkDispatchIndirectCommand dispatch;      // generate_triangles: a workgroup per listed block
    uint32_t meshBlockCount;                 // welded: listed blocks with vertices or triangles
    VkDispatchIndirectCommand countDispatch; // count_vertices: kCountBlocksPerGroup listed blocks a workgroup
};

// Words per welded list entry in slotVertices (first vertex, the edge-group
// sizes in bit fields): as groupFieldShift in
// block_edge_groups.glsl, each group's field just wide enough for its
// largest size, no field straddling two words.
uint32_t slotWords(std::array<uint32_t, 3> block)
{
    auto bitsFor = [](uint32_t largest) { return uint32_t(std::bit_width(largest)); };
    uint32_t largest[6] = {block[2], block[1], block[0], 2 * block[1] * block[2], 2 * block[0] * block[2],
                           2 * block[0] * block[1]};
    uint32_t shift = 0;
    for (uint32_t size : largest) {
        uint32_t bits = bitsFor(size);
        if (shift < 32 && shift + bits > 32)
            shift = 32;
        shift += bits;
    }
    if (shift > 64)
        fail("block size " + std::to_string(block[0]) + "x" + std::to_string(block[1]) + "x" +
             std::to_string(block[2]) + " needs " + std::to_string(shift) +
             " bits for its edge-group sizes, more than 64: choose a smaller block");
    return shift <= 32 ? 2 : 3;
}

constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                        VK_BUFFER_USAGE_TRANSFER_SRC_BIT;

void computeToCompute(VkCommandBuffer cmd)
{
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT,
                  VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT |
                      VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT);
}

// Runs of a workgroup's size each compact_blocks workgroup lists.
constexpr uint32_t kCompactRounds = 8;

class BlockExtractor final : public GpuExtractor {
public:
    BlockExtractor(Context& context, const FieldSource& field, const ExtractOptions& options)
        : GpuExtractor(*field.volume), context_(context), weld_(options.weld), block_(options.blockSize)
    {
        const DeviceInfo& info = context.info();
        uint64_t cellsPerBlock = uint64_t(block_[0]) * block_[1] * block_[2];
        // One invocation per cell, rounded up to whole subgroups so every
        // subgroup is full (partial ones are legal, but lavapipe's scans
        // went wrong on them).
        uint64_t blockGroupSize = (cellsPerBlock + info.subgroupSize - 1) / info.subgroupSize * info.subgroupSize;
        if (block_[0] == 0 || block_[1] == 0 || block_[2] == 0 || blockGroupSize > info.maxWorkgroupInvocations())
            fail("block size " + std::to_string(block_[0]) + "x" + std::to_string(block_[1]) + "x" +
                 std::to_string(block_[2]) + " needs " + std::to_string(blockGroupSize) +
                 " invocations per workgroup; this device allows " + std::to_string(info.maxWorkgroupInvocations()) +
                 " at its subgroup size: choose a smaller block");

        // The triangle pass keeps its shared arrays narrow (8- and 16-bit).
        if (!info.features.shaderInt8 || !info.features.shaderInt16)
            fail("the block method needs 8- and 16-bit integers in shaders (shaderInt8, shaderInt16), which " +
                 info.name + " does not offer: use --method scan");
        if (!options.analyticField.empty() && options.analyticField != "cayley")
            fail("the block method evaluates only 'cayley' in the shader, not '" + options.analyticField + "'");
        bool analytic = !options.analyticField.empty();
        if (!analytic && !field.gpuVolume)
            fail("the block method needs the volume on the GPU");
        ranges_ = std::make_unique<BlockValueRanges>(context, field, block_, RangeCoverage::Cells, analytic);
        volume_ = &ranges_->image();
        parameters_ = ranges_->parameters();
        blockCount_ = ranges_->blockCount();

        // compact_blocks owns whole 32-block words of the list bitmask.
        uint32_t groupSize = std::min<uint32_t>(256, info.maxWorkgroupInvocations()) / 32 * 32;
        if (groupSize == 0)
            fail("the block method needs workgroups of 32 invocations; this device allows " +
                 std::to_string(info.maxWorkgroupInvocations()) + " at its subgroup size");
        slotWords_ = slotWords(block_);
        // count_vertices: an invocation per row of a block's samples (the
        // rows' inside bits in one word each), several blocks a workgroup of
        // at most 128 invocations, rounded up to whole subgroups.
        if (weld_ && block_[0] > 32)
            fail("block width " + std::to_string(block_[0]) +
                 ": welded extraction holds a block row in one 32-bit word, so the width is at most 32; "
                 "choose a narrower block");
        uint32_t groupLimit = std::min<uint32_t>(128, info.maxWorkgroupInvocations());
        uint32_t rowLanes = std::min(groupLimit, (block_[1] + 1) * (block_[2] + 1));
        uint32_t countBlocksPerGroup = std::max<uint32_t>(1, groupLimit / rowLanes);
        uint32_t countGroupSize =
            (countBlocksPerGroup * rowLanes + info.subgroupSize - 1) / info.subgroupSize * info.subgroupSize;
        SpecValues common = {{"BLOCK_X", block_[0]}, {"BLOCK_Y", block_[1]}, {"BLOCK_Z", block_[2]},
                             {"FIELD", analytic ? 1u : 0u}, {"WELD", weld_ ? 1u : 0u}, {"SLOT_WORDS", slotWords_},
                             {"BYTE_RANGES", ranges_->byteRanges() ? 1u : 0u},
                             {"COUNT_BLOCKS_PER_GROUP", countBlocksPerGroup}, {"COUNT_ROW_LANES", rowLanes}};
        auto with = [&](uint32_t workgroupSize) {
            SpecValues values = common;
            values.emplace_back("WORKGROUP_SIZE", workgroupSize);
            return values;
        };
        SpecValues compactValues = with(groupSize);
        compactValues.emplace_back("COMPACT_ROUNDS", kCompactRounds);
        compact_.emplace(context, loadShader("extract/block/compact_blocks"), compactValues);
        prepare_.emplace(context, loadShader("extract/block/prepare_dispatch"), with(1));
        countVertices_.emplace(context, loadShader("extract/block/count_vertices"), with(countGroupSize));
        SpecValues generateValues = with(uint32_t(blockGroupSize));
        generateValues.emplace_back("BYTE_SAMPLES", !analytic && field.volume->type == ScalarType::UInt8 ? 1u : 0u);
        generateValues.emplace_back("NON_FINITE_SAMPLES", !analytic && field.volume->stats.nonFinite > 0 ? 1u : 0u);
        generate_.emplace(context, loadShader("extract/block/generate_triangles"), generateValues);

        Allocator& allocator = context.allocator();
        listedWords_ = allocator.createBuffer(weld_ ? (blockCount_ + 31) / 32 * 8 : 8, kStorage,
                                              MemoryUsage::DeviceLocal, "listed block bitmask");
        state_ = allocator.createBuffer(sizeof(State), kStorage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                                        MemoryUsage::DeviceLocal, "active block count");
        caseTable_ = createCaseTableBuffer(context);
        placeholderWords_ = allocator.createBuffer(4, kStorage, MemoryUsage::DeviceLocal, "unused volume words");
        // Smooth surfaces touch a small share of the blocks; a full list grows
        // (the first extraction is redone). The floor is kept small: on small
        // volumes it would be most of the auxiliary memory.
        allocateList(std::max<uint64_t>(std::min<uint64_t>(blockCount_, 64), blockCount_ / 8));
    }

    void record(VkCommandBuffer cmd, float iso, const GpuMesh& mesh, GpuTimer* timer) override
    {
        parameters_.iso = iso;
        auto scope = [&](const char* name) { return timer ? timer->begin(cmd, name) : 0u; };
        auto endScope = [&](uint32_t id) {
            if (timer)
                timer->end(cmd, id);
        };
        DescriptorInfo words{placeholderWords_.buffer};
        auto bind = [&](const ComputeProgram& program) {
            program.bind(cmd,
                         {{volume_->linearSampler(), volume_->image().view, VK_IMAGE_LAYOUT_GENERAL},
                          {ranges_->buffer().buffer},
                          {activeBlocks_.buffer},
                          {listedWords_.buffer},
                          {state_.buffer},
                          {slotVertices_.buffer},
                          {caseTable_.buffer},
                          {mesh.vertices.buffer},
                          {mesh.indices.buffer},
                          {mesh.counters.buffer},
                          words},
                         &parameters_, sizeof(parameters_));
        };

        vkCmdFillBuffer(cmd, state_.buffer, 0, sizeof(State), 0);
        memoryBarrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);

        // The ranges depend on the samples only: an isovalue change reuses them.
        uint32_t id = 0;
        if (!rangesValid_) {
            id = scope("min_max");
            ranges_->record(cmd);
            endScope(id);
            rangesValid_ = true;
        }
        computeToCompute(cmd);

        id = scope("compact_blocks");
        bind(*compact_);
        uint32_t groups = groupCount(blockCount_, compact_->localSize()[0] * kCompactRounds);
        uint32_t groupsX = std::min(groups, context_.info().maxComputeWorkGroupCount[0]);
        compact_->dispatch(cmd, groupsX, groupCount(groups, groupsX));
        computeToCompute(cmd);
        bind(*prepare_);
        prepare_->dispatch(cmd, 1);
        computeToCompute(cmd);
        endScope(id);

        if (weld_) {
            id = scope("count_vertices");
            bind(*countVertices_);
            vkCmdDispatchIndirect(cmd, state_.buffer, offsetof(State, countDispatch));
            computeToCompute(cmd);
            endScope(id);
        }

        id = scope("generate_triangles");
        bind(*generate_);
        vkCmdDispatchIndirect(cmd, state_.buffer, offsetof(State, dispatch));
        endScope(id);
    }

    uint64_t auxiliaryBytes() const override
    {
        return ranges_->allocatedBytes() + listedWords_.allocated + activeBlocks_.allocated + slotVertices_.allocated +
               state_.allocated + placeholderWords_.allocated;
    }

    uint64_t tableBytes() const override { return caseTable_.allocated; }

    void volumeChanged() override { rangesValid_ = false; }

    std::vector<std::pair<std::string, uint64_t>> workCounts() override
    {
        State state = downloadBufferAs<State>(context_, state_, 1)[0];
        std::vector<std::pair<std::string, uint64_t>> counts = {{"blocks", blockCount_},
                                                                {"listed_blocks", state.activeCount}};
        if (weld_)
            counts.emplace_back("blocks_with_geometry", state.meshBlockCount);
        return counts;
    }

    bool growAfterOverflow() override
    {
        uint32_t active = downloadBufferAs<State>(context_, state_, 1)[0].activeCount;
        if (active <= parameters_.activeCapacity)
            return false;
        allocateList(active);
        return true;
    }

private:
    void allocateList(uint64_t capacity)
    {
        capacity = std::max<uint64_t>(capacity, 1);
        activeBlocks_ = Buffer{};
        slotVertices_ = Buffer{};
        Allocator& allocator = context_.allocator();
        activeBlocks_ = allocator.createBuffer(capacity * 4, kStorage, MemoryUsage::DeviceLocal, "active block list");
        slotVertices_ = allocator.createBuffer(weld_ ? capacity * slotWords_ * 4 : 16, kStorage,
                                               MemoryUsage::DeviceLocal, "active block vertex ranges");
        parameters_.activeCapacity = uint32_t(capacity);
    }

    Context& context_;
    Buffer placeholderWords_;
    bool weld_;
    std::array<uint32_t, 3> block_;
    uint32_t slotWords_ = 2;
    std::unique_ptr<BlockValueRanges> ranges_;
    const GpuVolume* volume_ = nullptr;
    BlockParameters parameters_{};
    uint64_t blockCount_ = 0;
    bool rangesValid_ = false;
    std::optional<ComputeProgram> compact_, prepare_, countVertices_, generate_;
    Buffer listedWords_, activeBlocks_, slotVertices_, state_, caseTable_;
};

} // namespace

std::unique_ptr<GpuExtractor> createBlockExtractor(Context& context, const FieldSource& field,
                                                   const ExtractOptions& options)
{
    return std::make_unique<BlockExtractor>(context, field, options);
}

} // namespace isoscope
