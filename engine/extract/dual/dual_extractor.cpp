#include "extract/dual/dual_extractor.h"

#include <algorithm>
#include <bit>

#include "core/context.h"
#include "core/error.h"
#include "core/text.h"
#include "core/transfer.h"
#include "extract/dual/cells.h"
#include "extract/dual/clear_table.h"
#include "extract/dual/face_colors.h"
#include "extract/dual/halfedges.h"
#include "extract/dual/quads.h"
#include "graph/render_graph.h"
#include "volume/gpu_volume.h"

namespace isoscope {

namespace {

constexpr uint64_t kBucketBytes = 4 + 16; // key and four vertex numbers
constexpr uint32_t kMaxOutgoing = 12;      // halfedges leaving a vertex: one per edge of its MC polygon

class DualExtractor final : public GpuExtractor {
public:
    DualExtractor(Context& context, const FieldSource& field, const ExtractOptions& options)
        : GpuExtractor(context, *field.volume), context_(context), volume_(*field.volume),
          gpuVolume_(*field.gpuVolume), colors_(options.colors), halfedges_(options.halfedges || options.colors),
          cells_(context, colors_), quads_(context, colors_), halfedgesPass_(context), twins_(context),
          faceColors_(context)
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
        std::array<uint64_t, 2> guess = estimateCapacity(0.0f);
        sizeExtras(guess[0], guess[1]);
    }

    uint32_t faceSize() const override { return 4; }

    uint64_t auxiliaryBytes() const override
    {
        return counters_.allocated + halfedgeBuffer_.allocated + vertexHalfedgeBuffer_.allocated +
               vertexColorBuffer_.allocated + faceColorBuffer_.allocated;
    }

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
    // stored and those that found no bucket), so the redo fits. The
    // halfedge and colour buffers: the mesh's counts.
    bool growAfterOverflow() override
    {
        DualCounters c = readDualCounters();
        bool grew = false;
        if (c.insertsFailed != 0) {
            sizeTable(uint64_t(c.edgesStored) + c.insertsFailed);
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
        addClearTablePass(graph, prefix + "clear_table", r);
        cells_.add(graph, prefix + "cells", r, push_, iso);
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
    DualPush push_{};
    uint64_t buckets_ = 0;
    Buffer counters_;
    uint64_t extraVertexCapacity_ = 0, extraFaceCapacity_ = 0;
    Buffer halfedgeBuffer_, vertexHalfedgeBuffer_, vertexColorBuffer_, faceColorBuffer_;

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
