#include "extract/block/block_extractor.h"

#include <algorithm>
#include <bit>
#include <optional>
#include <string>

#include "core/context.h"
#include "core/error.h"
#include "core/shader.h"
#include "core/transfer.h"
#include "extract/block/block_state.h"
#include "extract/block/compact_blocks.h"
#include "extract/block/count_vertices.h"
#include "extract/block/generate_rows.h"
#include "extract/block/generate_triangles.h"
#include "extract/block/min_max.h"
#include "graph/render_graph.h"
#include "volume/gpu_volume.h"

namespace isoscope {

namespace {

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

// The shared memory generate_rows holds per block (block_rows.glsl and
// generate_rows.comp, array by array), so that a workgroup's blocks fit
// the device's limit.
uint32_t rowPassSharedBytesPerBlock(std::array<uint32_t, 3> block, bool weld)
{
    uint32_t rowCount = (block[1] + 1) * (block[2] + 1);
    // Inside and crossed-edge rows in bytes up to 8 wide; (welded) 16-bit first ranks where a block's fit.
    uint32_t rowBytes = block[0] <= 8 ? 1 : 4;
    uint32_t firstBytes = weld && 3 * block[0] * block[1] * block[2] <= 0xFFFF ? 2 : 4;
    uint32_t rows = rowCount * (rowBytes + 1 + 3 * rowBytes + 1 + firstBytes);
    // Seven codes a row: 16 bits where 3 ranks a cell fit 10 bits, else vertex numbers.
    uint32_t codes = weld ? rowCount * 7 * (3 * block[0] * block[1] * block[2] < 1024 ? 2 : 4) : 0;
    uint32_t areaMax = std::max({block[0] * block[1], block[0] * block[2], block[1] * block[2]});
    uint32_t masks = weld ? 27 * ((2 * areaMax + 31) / 32) * 4 : 0;
    uint32_t groupStarts = weld ? 8 * 7 * 4 : 0;
    return rows + codes + masks + groupStarts + 8;
}

// The row triangle pass from this many listed blocks on, the cell pass
// below: rows hold more blocks in flight, but each takes longer, which a
// surface listing fewer blocks than the GPU holds feels (the sparse sphere of
// 1024³ lists 2,058, the fMRI 622; the engine CT 6,061 and 11,848 ran faster
// on rows). compact_blocks picks by the list's length on the GPU, and both
// dispatches are recorded in one graph pass, so the empty one costs no
// barrier (docs/BENCHMARKS.md, "The block method's list, counts and fixed costs").
constexpr uint32_t kRowPassFromListed = 4096;

constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                        VK_BUFFER_USAGE_TRANSFER_SRC_BIT;

class BlockExtractor final : public GpuExtractor {
public:
    BlockExtractor(Context& context, const FieldSource& field, const ExtractOptions& options)
        : GpuExtractor(context, *field.volume), context_(context), weld_(options.weld), block_(options.blockSize)
    {
        const DeviceInfo& info = context.info();
        const std::string& blockPass = options.blockPass;
        uint64_t cellsPerBlock = uint64_t(block_[0]) * block_[1] * block_[2];
        // The cell pass: one invocation per cell, rounded up to whole
        // subgroups so every subgroup is full (partial ones are legal, but
        // lavapipe's scans went wrong on them).
        uint64_t blockGroupSize = (cellsPerBlock + info.subgroupSize - 1) / info.subgroupSize * info.subgroupSize;
        if (cellsPerBlock == 0)
            fail("block size " + std::to_string(block_[0]) + "x" + std::to_string(block_[1]) + "x" +
                 std::to_string(block_[2]) + ": every side must be at least 1");
        bool cellsFit = blockGroupSize <= info.maxWorkgroupInvocations();
        if (blockPass == "cells" && !cellsFit)
            fail("block size " + std::to_string(block_[0]) + "x" + std::to_string(block_[1]) + "x" +
                 std::to_string(block_[2]) + " needs " + std::to_string(blockGroupSize) +
                 " invocations per workgroup in the cell pass; this device allows " +
                 std::to_string(info.maxWorkgroupInvocations()) + " at its subgroup size: choose a smaller block");
        if (!blockPass.empty() && blockPass != "cells" && blockPass != "rows")
            fail("block triangle pass '" + blockPass + "': use cells or rows");

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
        parameters_ = ranges_->parameters();
        blockCount_ = ranges_->blockCount();

        // compact_blocks owns whole 32-block words of the list bitmask.
        uint32_t groupSize = std::min<uint32_t>(256, info.maxWorkgroupInvocations()) / 32 * 32;
        if (groupSize == 0)
            fail("the block method needs workgroups of 32 invocations; this device allows " +
                 std::to_string(info.maxWorkgroupInvocations()) + " at its subgroup size");
        slotWords_ = slotWords(block_);
        // count_vertices and generate_rows: an invocation per own x-row of a
        // block (y < BLOCK_Y, z < BLOCK_Z; the overlap's rows go to the first
        // ones as second rows), the rows' inside bits in one word each,
        // several blocks a workgroup of at most 128 invocations, rounded up
        // to whole subgroups, as many as the row pass's shared memory allows.
        // An invocation per row of the box (25 for 8x4x4, not 16) left 9 idle
        // through the triangles (docs/BENCHMARKS.md).
        if (block_[0] > 32)
            fail("block width " + std::to_string(block_[0]) +
                 ": the block method holds a block row in one 32-bit word, so the width is at most 32; "
                 "choose a narrower block");
        uint32_t groupLimit = std::min<uint32_t>(128, info.maxWorkgroupInvocations());
        uint32_t rowLanes = std::min(groupLimit, block_[1] * block_[2]);
        uint64_t blocks = uint64_t(blockCount_);
        // Which triangle passes are built; where both are, compact_blocks
        // dispatches one by the list's length, the other's dispatch empty
        // (no row pass where the list can never be that long).
        bool byRule = blockPass.empty() && cellsFit;
        rowPass_ = blockPass == "rows" || (blockPass.empty() && !cellsFit) || (byRule && blocks >= kRowPassFromListed);
        cellPass_ = blockPass == "cells" || byRule;
        uint32_t rowsFromListed = !cellPass_ ? 0u : !rowPass_ ? 0xFFFFFFFFu : kRowPassFromListed;
        uint32_t blockBytes = rowPassSharedBytesPerBlock(block_, weld_);
        if (rowPass_ && blockBytes > info.maxComputeSharedMemorySize)
            fail("block size " + std::to_string(block_[0]) + "x" + std::to_string(block_[1]) + "x" +
                 std::to_string(block_[2]) + " needs " + std::to_string(blockBytes) +
                 " bytes of shared memory a block in the row triangle pass; this device allows " +
                 std::to_string(info.maxComputeSharedMemorySize) + ": choose a smaller block");
        uint32_t countBlocksPerGroup = std::max<uint32_t>(1, groupLimit / rowLanes);
        if (rowPass_)
            countBlocksPerGroup = std::max<uint32_t>(1, std::min(countBlocksPerGroup, info.maxComputeSharedMemorySize / blockBytes));
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
        compact_.emplace(context, with(groupSize), ranges_->blockCounts(), ranges_->byteRanges(), rowsFromListed, true);
        if (weld_)
            countVertices_.emplace(context, with(countGroupSize));
        // Streamed float32 slabs: one extractor serves every slab, and a later one may hold NaNs.
        bool streamedFloats = options.streamedSlabs && field.volume->type == ScalarType::Float32;
        auto generateValues = [&](uint32_t workgroupSize) {
            SpecValues values = with(workgroupSize);
            values.emplace_back("NON_FINITE_SAMPLES",
                                !analytic && (streamedFloats || field.volume->stats.nonFinite > 0) ? 1u : 0u);
            values.emplace_back("EDGE_CODES", options.streamedSlabs ? 1u : 0u);
            return values;
        };
        streamedSlabs_ = options.streamedSlabs;
        if (rowPass_)
            generateRows_.emplace(context, generateValues(countGroupSize));
        if (cellPass_) {
            SpecValues cellValues = generateValues(uint32_t(blockGroupSize));
            cellValues.emplace_back("BYTE_SAMPLES", !analytic && field.volume->type == ScalarType::UInt8 ? 1u : 0u);
            generate_.emplace(context, cellValues);
        }

        state_ = context.allocator().createBuffer(sizeof(BlockState), kStorage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                                                  MemoryUsage::DeviceLocal, "block method state");
        fillBuffer(context, state_, 0); // compact_blocks' counters start at zero

        // Smooth surfaces touch a small share of the blocks; a full list grows
        // (the first extraction is redone). The floor is kept small: on small
        // volumes it would be most of the auxiliary memory.
        setListCapacity(std::max<uint64_t>(std::min<uint64_t>(blockCount_, 64), blockCount_ / 8));
    }

    uint64_t auxiliaryBytes() const override { return ranges_->allocatedBytes() + state_.allocated; }
    bool resetsMeshCounters() const override { return true; } // compact_blocks' last workgroup
    void volumeChanged() override { rangesValid_ = false; }
    void addRegionPasses(RenderGraph& graph, const VolumeRegion& region) override
    {
        if (rangesValid_) // otherwise the next extraction computes every block's
            ranges_->addRegionPass(graph, region, "block value ranges of a region");
    }

    void placeSlab(const SlabPlacement& placement) override
    {
        if (!streamedSlabs_)
            GpuExtractor::placeSlab(placement);
        ranges_->placeSlab(placement.firstPlane, placement.imagePlanesBelow);
        parameters_.firstPlane = placement.firstPlane;
        parameters_.imagePlanesBelow = placement.imagePlanesBelow;
        parameters_.volumePlanes = placement.volumePlanes;
        edgeCodes_ = placement.edgeCodes;
    }

    std::vector<std::pair<std::string, uint64_t>> workCounts() override
    {
        BlockState state = downloadBufferAs<BlockState>(context_, state_, 1)[0];
        std::vector<std::pair<std::string, uint64_t>> counts = {{"blocks", blockCount_},
                                                                {"listed_blocks", state.activeCount}};
        if (weld_)
            counts.emplace_back("blocks_with_geometry", state.meshBlockCount);
        // 1 where the row triangle pass ran (compact_blocks' pick), 0 where the cell pass did.
        counts.emplace_back("row_pass", state.rowDispatch.x > 0 ? 1 : 0);
        return counts;
    }

    bool growAfterOverflow() override
    {
        uint32_t active = downloadBufferAs<BlockState>(context_, state_, 1)[0].activeCount;
        if (active <= parameters_.activeCapacity)
            return false;
        setListCapacity(active);
        return true;
    }

protected:
    // The method's passes (Liu et al. 2016, sections 4.1-4.3).
    void addPasses(RenderGraph& graph, const MeshBuffers& mesh, const float& iso, const std::string& prefix) override
    {
        BlockLayout layout;
        ResourceId* r = layout.resources;
        r[kBlockVolume] = importVolumeImage(graph, ranges_->image(), prefix + "volume");
        r[kBlockRanges] = graph.importBuffer(prefix + "block value ranges", ranges_->buffer().buffer);
        // The list and its maps live for one frame: transients.
        uint64_t capacity = parameters_.activeCapacity;
        r[kBlockActiveBlocks] = graph.createBuffer(prefix + "active block list", capacity * 4);
        r[kBlockListedWords] = graph.createBuffer(prefix + "listed block words", weld_ ? (blockCount_ + 31) / 32 * 8 : 8);
        r[kBlockSlotVertices] =
            graph.createBuffer(prefix + "listed block vertices", weld_ ? capacity * slotWords_ * 4 : 16);
        // Read back after the frame (the list's length, work counts): imported.
        r[kBlockState] = graph.importBuffer(prefix + "block method state", state_.buffer);
        r[kBlockCaseTable] = importCaseTable(graph, prefix);
        r[kBlockMeshVertices] = mesh.vertices;
        r[kBlockMeshIndices] = mesh.indices;
        r[kBlockMeshCounters] = mesh.counters;
        ResourceId placeholder = graph.importBuffer(prefix + "unused block-layout bindings", ranges_->placeholder().buffer);
        r[kBlockVolumeWords] = placeholder;
        r[kBlockVertexEdgeCodes] = placeholder;
        layout.sampler = ranges_->image().linearSampler();

        // The ranges depend on the samples only: an isovalue change reuses them.
        ranges_->addPass(graph, r[kBlockRanges], prefix + "min_max");
        graph.setCondition([this] { return !rangesValid_; });
        // Before count_vertices writes the listed blocks' vertex ranges (and
        // without welding, where nothing does) their binding holds a
        // placeholder: a transient is never read before it is written.
        BlockLayout noSlots = layout;
        noSlots.resources[kBlockSlotVertices] = placeholder;
        compact_->add(graph, noSlots, parameters_, iso, blockCount_, [this] {
            rangesValid_ = true; // min_max, if it ran, was recorded before
        });
        if (weld_)
            countVertices_->add(graph, layout, parameters_, iso);
        // Only the triangle pass writes edge codes (streamed slabs; else a scratch word).
        BlockLayout generateLayout = weld_ ? layout : noSlots;
        generateLayout.resources[kBlockVertexEdgeCodes] =
            edgeCodes_ != kNoResource ? edgeCodes_ : graph.createBuffer(prefix + "unused vertex edge codes", 16);
        if (cellPass_ && rowPass_)
            generateRows_->addWithCellPass(graph, *generate_, generateLayout, parameters_, iso);
        else if (cellPass_)
            generate_->add(graph, generateLayout, parameters_, iso);
        else
            generateRows_->add(graph, generateLayout, parameters_, iso);
    }

private:
    void setListCapacity(uint64_t capacity) { parameters_.activeCapacity = uint32_t(std::max<uint64_t>(capacity, 1)); }

    Context& context_;
    bool weld_;
    std::array<uint32_t, 3> block_;
    uint32_t slotWords_ = 2;
    std::unique_ptr<BlockValueRanges> ranges_;
    BlockParameters parameters_{};
    uint64_t blockCount_ = 0;
    bool rangesValid_ = false;
    bool streamedSlabs_ = false;
    ResourceId edgeCodes_ = kNoResource;
    std::optional<CompactBlocksPass> compact_;
    std::optional<CountVerticesPass> countVertices_;
    std::optional<GenerateTrianglesPass> generate_;
    std::optional<GenerateRowsPass> generateRows_;
    bool rowPass_ = false;  // generate_rows is built (and runs where compact_blocks picks it)
    bool cellPass_ = false; // generate_triangles is built (likewise)
    Buffer state_;
};

} // namespace

std::unique_ptr<GpuExtractor> createBlockExtractor(Context& context, const FieldSource& field,
                                                   const ExtractOptions& options)
{
    return std::make_unique<BlockExtractor>(context, field, options);
}

} // namespace isoscope
