#include "extract/dual/dual_extractor.h"

#include <algorithm>
#include <bit>
#include <optional>

#include "core/context.h"
#include "core/error.h"
#include "core/text.h"
#include "core/transfer.h"
#include "extract/block/block_layout.h"
#include "extract/block/block_state.h"
#include "extract/block/compact_blocks.h"
#include "extract/block/min_max.h"
#include "extract/dual/active_cells.h"
#include "extract/dual/cells.h"
#include "extract/dual/clear_table.h"
#include "extract/dual/face_colors.h"
#include "extract/dual/halfedges.h"
#include "extract/dual/prepare_dispatch.h"
#include "extract/dual/quads.h"
#include "graph/render_graph.h"
#include "volume/gpu_volume.h"

namespace isoscope {

namespace {

constexpr uint64_t kBucketBytes = 4 + 16; // key and four vertex numbers
constexpr uint32_t kMaxOutgoing = 12;      // halfedges leaving a vertex: one per edge of its MC polygon
// The value-range block of the classification: the block method's default
// (8×4×4, the paper's), whose min_max and compact_blocks passes were tuned for it.
constexpr std::array<uint32_t, 3> kRangeBlock = {8, 4, 4};
constexpr VkBufferUsageFlags kStateUsage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                           VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;

class DualExtractor final : public GpuExtractor {
public:
    DualExtractor(Context& context, const FieldSource& field, const ExtractOptions& options)
        : GpuExtractor(context, *field.volume), context_(context), volume_(*field.volume),
          gpuVolume_(*field.gpuVolume), colors_(options.colors), halfedges_(options.halfedges || options.colors),
          cells_(context, colors_), quads_(context, colors_), halfedgesPass_(context), twins_(context),
          faceColors_(context), activeCells_(context, kRangeBlock),
          prepareCells_(context, DualPrepareDispatchPass::List::ActiveCells, cells_.groupSize()),
          prepareQuads_(context, DualPrepareDispatchPass::List::StoredEdges, quads_.groupSize())
    {
        const std::array<uint32_t, 3>& d = volume_.dims;
        for (uint32_t n : d)
            if (n < 2)
                fail("the dual method needs at least 2 samples along each axis");
        if (3 * uint64_t(d[0]) * d[1] * d[2] >= 0xFFFFFFFFull)
            fail("the dual method keys grid edges by 32-bit numbers: " + std::to_string(d[0]) + "x" +
                 std::to_string(d[1]) + "x" + std::to_string(d[2]) +
                 " points have too many edges (at most 1431655764 points); use --method block");
        // A first guess: a surface crosses about as many edges as two faces of the grid hold.
        uint64_t x = d[0], y = d[1], z = d[2];
        sizeTable(options.hashBuckets ? options.hashBuckets / 2 : 2 * (x * y + y * z + x * z) + 1024);
        counters_ = context.allocator().createBuffer(sizeof(DualCounters), kStateUsage, MemoryUsage::DeviceLocal,
                                                     "dual method counters");
        std::array<uint64_t, 2> guess = estimateCapacity(0.0f);
        sizeExtras(guess[0], guess[1]);
        // One cell with geometry per vertex but where a cell holds several polygons.
        activeCellCapacity_ = std::max<uint64_t>(guess[0], 256);
        setUpClassification(context, field);
    }

    uint32_t faceSize() const override { return 4; }

    uint64_t auxiliaryBytes() const override
    {
        return counters_.allocated + halfedgeBuffer_.allocated + vertexHalfedgeBuffer_.allocated +
               vertexColorBuffer_.allocated + faceColorBuffer_.allocated + ranges_->allocatedBytes() +
               blockState_.allocated;
    }

    void volumeChanged() override { rangesValid_ = false; }
    void addRegionPasses(RenderGraph& graph, const VolumeRegion& region) override
    {
        if (rangesValid_) // otherwise the next extraction computes every block's
            ranges_->addRegionPass(graph, region, "dual block value ranges of a region");
    }

    std::vector<std::pair<std::string, uint64_t>> workCounts() override
    {
        DualCounters c = readDualCounters();
        BlockState state = downloadBufferAs<BlockState>(context_, blockState_, 1)[0];
        return {{"blocks", ranges_->blockCount()},
                {"listed_blocks", state.activeCount},
                {"active_cells", c.activeCellCount},
                {"hash_buckets", buckets_},
                {"hash_table_bytes", buckets_ * kBucketBytes},
                {"edges_stored", c.edgesStored},
                {"inserts_failed", c.insertsFailed},
                {"wide_searches", c.wideSearches},
                {"fallback_vertices", c.fallbackVertices},
                {"incomplete_quads", c.incompleteQuads}};
    }

    // The table (or its stored-edge list) was too small: twice the edges
    // it was asked to hold (those stored and those that found no bucket),
    // so the redo fits. The block and cell lists: their counts. The
    // halfedge and colour buffers: the mesh's counts.
    bool growAfterOverflow() override
    {
        DualCounters c = readDualCounters();
        bool grew = false;
        if (c.insertsFailed != 0 || c.edgesStored > edgeListCapacity()) {
            sizeTable(uint64_t(c.edgesStored) + c.insertsFailed);
            grew = true;
        }
        uint32_t listedBlocks = downloadBufferAs<BlockState>(context_, blockState_, 1)[0].activeCount;
        if (listedBlocks > blockParameters_.activeCapacity) {
            blockParameters_.activeCapacity = listedBlocks;
            grew = true;
        }
        if (c.activeCellCount > activeCellCapacity_) {
            activeCellCapacity_ = c.activeCellCount;
            grew = true;
        }
        if (c.verticesNeeded > extraVertexCapacity_ || c.facesNeeded > extraFaceCapacity_) {
            sizeExtras(std::max<uint64_t>(c.verticesNeeded, extraVertexCapacity_),
                       std::max<uint64_t>(c.facesNeeded, extraFaceCapacity_));
            grew = true;
        }
        return grew;
    }

    void readBackExtras(ExtractionReport& report, const GpuMeshCounters& counters) override
    {
        size_t vertices = counters.vertexCount, faces = counters.faceCount;
        if (halfedges_) {
            report.halfedges = downloadBufferAs<uint32_t>(context_, halfedgeBuffer_, 16 * faces);
            report.vertexHalfedges = downloadBufferAs<uint32_t>(context_, vertexHalfedgeBuffer_, vertices);
        }
        if (colors_) {
            report.vertexColors = downloadBufferAs<uint32_t>(context_, vertexColorBuffer_, vertices);
            report.faceColors = downloadBufferAs<uint32_t>(context_, faceColorBuffer_, faces);
        }
    }

    HalfedgeBuffers halfedgeBuffers() const override
    {
        return {halfedgeBuffer_.buffer, vertexHalfedgeBuffer_.buffer, vertexColorBuffer_.buffer,
                faceColorBuffer_.buffer};
    }

protected:
    void addPasses(RenderGraph& graph, const MeshBuffers& mesh, const float& iso, const std::string& prefix) override
    {
        push_ = gridPush(); // the capacities the buffers below were sized for
        DualResources r;
        r.counters = graph.importBuffer(prefix + "dual method counters", counters_.buffer);
        r.volume = importVolumeBuffer(graph, gpuVolume_, prefix + "volume samples");
        r.tableKeys = graph.createBuffer(prefix + "edge hash keys", buckets_ * 4);
        r.tableQuads = graph.createBuffer(prefix + "edge hash quads", buckets_ * 16);
        r.vertices = mesh.vertices;
        r.indices = mesh.indices;
        r.meshCounters = mesh.counters;
        // The outputs beside the mesh, or 16-byte stand-ins for the bindings.
        auto output = [&](const char* what, const Buffer& buffer) {
            return buffer.buffer ? graph.importBuffer(prefix + what, buffer.buffer) : graph.createBuffer(prefix + what, 16);
        };
        r.vertexColors = output("vertex colours", vertexColorBuffer_);
        r.faceColors = output("face colours", faceColorBuffer_);
        r.blockState = graph.importBuffer(prefix + "dual block state", blockState_.buffer);
        r.activeBlocks = graph.createBuffer(prefix + "active block list", uint64_t(blockParameters_.activeCapacity) * 4);
        r.activeCells = graph.createBuffer(prefix + "active cell list", activeCellCapacity_ * 4);
        r.edgeList = graph.createBuffer(prefix + "stored edge list", edgeListCapacity() * 4);
        addClassificationPasses(graph, r, mesh, iso, prefix);
        cells_.add(graph, prefix + "cells", r, push_, iso);
        prepareQuads_.add(graph, prefix + "prepare_quads", r, push_);
        quads_.add(graph, prefix + "quads", r, push_);
        if (!halfedges_)
            return;
        r.halfedges = output("halfedges", halfedgeBuffer_);
        r.vertexHalfedges = output("vertex halfedges", vertexHalfedgeBuffer_);
        r.outgoing = graph.createBuffer(prefix + "outgoing halfedges", extraVertexCapacity_ * kMaxOutgoing * 4);
        r.outgoingCounts = graph.createBuffer(prefix + "outgoing halfedge counts", extraVertexCapacity_ * 4);
        addClearHalfedgesPass(graph, prefix + "clear_halfedges", r);
        halfedgesPass_.add(graph, prefix + "halfedges", r, push_);
        twins_.add(graph, prefix + "twins", r, push_);
        if (colors_)
            faceColors_.add(graph, prefix + "face_colors", r, push_);
    }

private:
    Context& context_;
    const Volume& volume_;
    const GpuVolume& gpuVolume_;
    bool colors_;
    bool halfedges_; // also for the colours, whose reduction looks at the twins
    DualCellsPass cells_;
    DualQuadsPass quads_;
    DualHalfedgesPass halfedgesPass_;
    DualTwinsPass twins_;
    DualFaceColorsPass faceColors_;
    DualActiveCellsPass activeCells_;
    DualPrepareDispatchPass prepareCells_, prepareQuads_;
    // The classification: the block method's value ranges and block list.
    std::unique_ptr<BlockValueRanges> ranges_;
    BlockParameters blockParameters_{};
    std::optional<CompactBlocksPass> compactBlocks_;
    Buffer blockState_;
    bool rangesValid_ = false;
    uint64_t activeCellCapacity_ = 0;
    DualPush push_{};
    uint64_t buckets_ = 0;
    Buffer counters_;
    uint64_t extraVertexCapacity_ = 0, extraFaceCapacity_ = 0;
    Buffer halfedgeBuffer_, vertexHalfedgeBuffer_, vertexColorBuffer_, faceColorBuffer_;

    // The block method's value ranges over kRangeBlock blocks and its block
    // list (min_max, compact_blocks), whose count
    // dispatch sizes active_cells: a workgroup per blocksPerGroup() blocks.
    void setUpClassification(Context& context, const FieldSource& field)
    {
        ranges_ = std::make_unique<BlockValueRanges>(context, field, kRangeBlock, RangeCoverage::Cells);
        blockParameters_ = ranges_->parameters();
        uint64_t blocks = ranges_->blockCount();
        // compact_blocks owns whole 32-block words of the list bitmask.
        uint32_t groupSize = std::min<uint32_t>(256, context.info().maxWorkgroupInvocations()) / 32 * 32;
        if (groupSize == 0)
            fail("the dual method needs workgroups of 32 invocations; this device allows " +
                 std::to_string(context.info().maxWorkgroupInvocations()));
        SpecValues values = {{"BLOCK_X", kRangeBlock[0]},
                             {"BLOCK_Y", kRangeBlock[1]},
                             {"BLOCK_Z", kRangeBlock[2]},
                             {"WELD", 0u},
                             {"BYTE_RANGES", ranges_->byteRanges() ? 1u : 0u},
                             {"COUNT_BLOCKS_PER_GROUP", activeCells_.blocksPerGroup()}};
        auto with = [&](uint32_t workgroupSize) {
            SpecValues v = values;
            v.emplace_back("WORKGROUP_SIZE", workgroupSize);
            return v;
        };
        compactBlocks_.emplace(context, with(groupSize), ranges_->blockCounts(), ranges_->byteRanges());
        blockState_ = context.allocator().createBuffer(sizeof(BlockState), kStateUsage, MemoryUsage::DeviceLocal,
                                                       "dual block state");
        // A listed block holds a cell with geometry (but for the rare one the
        // ranges' outward rounding keeps): no more than the cell list holds.
        blockParameters_.activeCapacity = uint32_t(std::max<uint64_t>(std::min(blocks, activeCellCapacity_), 1));
    }

    // min_max (where the samples changed), the clears, compact_blocks of the
    // block method (which sizes the dispatches after it), then the cells with geometry and
    // the cells pass's dispatch.
    void addClassificationPasses(RenderGraph& graph, const DualResources& r, const MeshBuffers& mesh,
                                 const float& iso, const std::string& prefix)
    {
        BlockLayout layout;
        ResourceId placeholder = graph.importBuffer(prefix + "unused block-layout bindings",
                                                    ranges_->placeholder().buffer);
        std::fill(std::begin(layout.resources), std::end(layout.resources), placeholder);
        layout.resources[kBlockVolume] = importVolumeImage(graph, ranges_->image(), prefix + "volume image");
        layout.resources[kBlockRanges] = graph.importBuffer(prefix + "dual block value ranges", ranges_->buffer().buffer);
        layout.resources[kBlockActiveBlocks] = r.activeBlocks;
        layout.resources[kBlockListedWords] = graph.createBuffer(prefix + "listed block words", 8);
        layout.resources[kBlockState] = r.blockState;
        layout.resources[kBlockMeshCounters] = mesh.counters;
        layout.sampler = ranges_->image().linearSampler();

        // The ranges depend on the samples only: an isovalue change reuses them.
        ranges_->addPass(graph, layout.resources[kBlockRanges], prefix + "min_max");
        graph.setCondition([this] { return !rangesValid_; });
        // min_max, if it ran, was recorded before the clear.
        addClearTablePass(graph, prefix + "clear_table", r, [this] { rangesValid_ = true; });
        compactBlocks_->add(graph, layout, blockParameters_, iso, ranges_->blockCount());
        activeCells_.add(graph, prefix + "active_cells", r, push_, iso);
        prepareCells_.add(graph, prefix + "prepare_cells", r, push_);
    }

    // The stored-edge list: one entry per bucket taken. The table's load
    // stays at most one half where the guess holds; a list that fills grows
    // the table (growAfterOverflow), so the list's share is fixed.
    uint64_t edgeListCapacity() const { return buckets_ / 2; }

    // Buckets for `edges` keys at a load of at most one half, a power of two.
    void sizeTable(uint64_t edges)
    {
        uint64_t buckets = std::bit_ceil(std::max<uint64_t>(2 * edges, 256));
        uint64_t limit = context_.info().maxStorageBufferRange;
        if (buckets * 16 > limit || buckets > (1ull << 31))
            fail("the dual method's edge hash table for " + std::to_string(edges) + " edges takes " +
                 formatBytes(buckets * kBucketBytes) + ", more than one storage binding (" + formatBytes(limit) +
                 ") on this device");
        buckets_ = buckets;
    }

    // The halfedge and colour buffers, for this many vertices and faces (at
    // least one each); none where not asked for.
    void sizeExtras(uint64_t vertices, uint64_t faces)
    {
        vertices = std::max<uint64_t>(vertices, 1);
        faces = std::max<uint64_t>(faces, 1);
        if (4 * faces > 0xFFFFFFFFull || vertices * kMaxOutgoing > 0xFFFFFFFFull)
            fail("the dual method's halfedges for " + std::to_string(faces) +
                 " quads do not fit 32-bit halfedge numbers");
        extraVertexCapacity_ = vertices;
        extraFaceCapacity_ = faces;
        Allocator& allocator = context_.allocator();
        auto create = [&](Buffer& buffer, uint64_t bytes, const char* what) {
            buffer = Buffer{};
            buffer = allocator.createBuffer(bytes,
                                            VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                                VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                            MemoryUsage::DeviceLocal, what);
        };
        if (halfedges_) {
            create(halfedgeBuffer_, faces * 4 * 16, "dual method halfedges");
            create(vertexHalfedgeBuffer_, vertices * 4, "dual method vertex halfedges");
        }
        if (colors_) {
            create(vertexColorBuffer_, vertices * 4, "dual method vertex colours");
            create(faceColorBuffer_, faces * 4, "dual method face colours");
        }
    }

    DualPush gridPush() const
    {
        DualPush push{};
        setGridPush(push, volume_);
        push.tableBuckets = uint32_t(buckets_);
        push.extraVertexCapacity = uint32_t(extraVertexCapacity_);
        push.extraFaceCapacity = uint32_t(extraFaceCapacity_);
        push.activeBlockCapacity = blockParameters_.activeCapacity;
        push.activeCellCapacity = uint32_t(activeCellCapacity_);
        push.edgeListCapacity = uint32_t(edgeListCapacity());
        return push;
    }

    DualCounters readDualCounters() const
    {
        std::vector<DualCounters> c = downloadBufferAs<DualCounters>(context_, counters_, 1);
        return c[0];
    }
};

} // namespace

std::unique_ptr<GpuExtractor> createDualExtractor(Context& context, const FieldSource& field,
                                                  const ExtractOptions& options)
{
    requireVolumeBuffer(field, options, "dual");
    if (!options.weld)
        fail("--no-weld: the dual method's vertices are one per MC polygon, each shared by its quads; there is "
             "nothing to unweld");
    return std::make_unique<DualExtractor>(context, field, options);
}

} // namespace isoscope
