#include "extract/dual/dual_extractor.h"

#include <algorithm>
#include <bit>

#include "core/context.h"
#include "core/error.h"
#include "core/text.h"
#include "core/transfer.h"
#include "extract/dual/cells.h"
#include "extract/dual/clear_table.h"
#include "extract/dual/quads.h"
#include "graph/render_graph.h"
#include "volume/gpu_volume.h"

namespace isoscope {

namespace {

constexpr uint64_t kBucketBytes = 4 + 16; // key and four vertex numbers

class DualExtractor final : public GpuExtractor {
public:
    DualExtractor(Context& context, const FieldSource& field, const ExtractOptions& options)
        : GpuExtractor(context, *field.volume), context_(context), volume_(*field.volume),
          gpuVolume_(*field.gpuVolume), cells_(context), quads_(context)
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
        counters_ = context.allocator().createBuffer(sizeof(DualCounters),
                                                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                                         VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                                         VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                     MemoryUsage::DeviceLocal, "dual method counters");
    }

    uint32_t faceSize() const override { return 4; }

    uint64_t auxiliaryBytes() const override { return counters_.allocated; }

    std::vector<std::pair<std::string, uint64_t>> workCounts() override
    {
        DualCounters c = readDualCounters();
        return {{"hash_buckets", buckets_},
                {"hash_table_bytes", buckets_ * kBucketBytes},
                {"edges_stored", c.edgesStored},
                {"inserts_failed", c.insertsFailed},
                {"fallback_vertices", c.fallbackVertices},
                {"incomplete_quads", c.incompleteQuads}};
    }

    // The table was too small: twice the edges it was asked to hold (those
    // stored and those that found no bucket), so the redo fits.
    bool growAfterOverflow() override
    {
        DualCounters c = readDualCounters();
        if (c.insertsFailed == 0)
            return false;
        sizeTable(uint64_t(c.edgesStored) + c.insertsFailed);
        return true;
    }

protected:
    void addPasses(RenderGraph& graph, const MeshBuffers& mesh, const float& iso, const std::string& prefix) override
    {
        push_ = gridPush();
        DualResources r;
        r.volume = importVolumeBuffer(graph, gpuVolume_, prefix + "volume samples");
        r.counters = graph.importBuffer(prefix + "dual method counters", counters_.buffer);
        r.tableKeys = graph.createBuffer(prefix + "edge hash keys", buckets_ * 4);
        r.tableQuads = graph.createBuffer(prefix + "edge hash quads", buckets_ * 16);
        r.vertices = mesh.vertices;
        r.indices = mesh.indices;
        r.meshCounters = mesh.counters;
        addClearTablePass(graph, prefix + "clear_table", r);
        cells_.add(graph, prefix + "cells", r, push_, iso);
        quads_.add(graph, prefix + "quads", r, push_);
    }

private:
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

    DualPush gridPush() const
    {
        DualPush push{};
        setGridPush(push, volume_);
        push.tableBuckets = uint32_t(buckets_);
        return push;
    }

    DualCounters readDualCounters() const
    {
        std::vector<DualCounters> c = downloadBufferAs<DualCounters>(context_, counters_, 1);
        return c[0];
    }

    Context& context_;
    const Volume& volume_;
    const GpuVolume& gpuVolume_;
    DualCellsPass cells_;
    DualQuadsPass quads_;
    DualPush push_{};
    uint64_t buckets_ = 0;
    Buffer counters_;
};

} // namespace

std::unique_ptr<GpuExtractor> createDualExtractor(Context& context, const FieldSource& field,
                                                  const ExtractOptions& options)
{
    requireVolumeBuffer(field, options, "dual");
    return std::make_unique<DualExtractor>(context, field, options);
}

} // namespace isoscope
