#include "extract/histopyramid/histopyramid_extractor.h"

#include <algorithm>
#include <optional>

#include "core/context.h"
#include "core/error.h"
#include "core/shader.h"
#include "core/memory.h"
#include "core/transfer.h"
#include "extract/histopyramid/base.h"
#include "extract/histopyramid/base_runs.h"
#include "extract/histopyramid/histopyramid_levels.h"
#include "extract/histopyramid/prepare.h"
#include "extract/histopyramid/reduce.h"
#include "extract/histopyramid/reduce_words.h"
#include "extract/histopyramid/triangles.h"
#include "extract/histopyramid/vertices.h"
#include "graph/render_graph.h"
#include "volume/gpu_volume.h"

namespace isoscope {

namespace {

constexpr uint32_t kWorkgroupSize = 64; // base.comp and reduce.comp fix it; the traversal passes take it too

class HistoPyramidExtractor final : public GpuExtractor {
public:
    HistoPyramidExtractor(Context& context, const FieldSource& field, const ExtractOptions& options)
        : GpuExtractor(context, *field.volume, !options.weld), context_(context), volume_(*field.volume),
          gpuVolume_(*field.gpuVolume), weld_(options.weld), shape_(histoPyramidShape(field.volume->dims)),
          columns_(options.histoPyramidColumn != 0 || histoPyramidBaseInColumns(shape_)),
          column_(options.histoPyramidColumn != 0 ? options.histoPyramidColumn : histoPyramidBaseColumn(shape_)),
          prepare_(context, {{"WORKGROUP_SIZE", kWorkgroupSize},
                             {"WELD", weld_ ? 1u : 0u},
                             {"MAX_GROUPS_X", context.info().maxComputeWorkGroupCount[0]}}),
          vertices_(context, {{"WORKGROUP_SIZE", kWorkgroupSize}}),
          triangles_(context, weld_, {{"WORKGROUP_SIZE", kWorkgroupSize}})
    {
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
        std::vector<uint32_t> table;
        for (const HistoPyramidLevel& level : shape_.levels)
            table.insert(table.end(), {level.dims[0], level.dims[1], level.dims[2], uint32_t(level.firstWord)});
        levels_ = allocator.createBuffer(table.size() * 4,
                                         VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                         MemoryUsage::DeviceLocal, "histopyramid level table");
        uploadToBuffer(context, levels_, table.data(), table.size() * 4);
        // Only the base and reduce passes that run: each is a pipeline to create.
        if (columns_) {
            base_.emplace(context, volume_);
            reduce_.emplace(context);
        } else {
            baseRuns_.emplace(context);
            reduceWords_.emplace(context);
        }
    }

    uint64_t auxiliaryBytes() const override { return levels_.allocated; }

    std::vector<std::pair<std::string, uint64_t>> workCounts() override
    {
        // base_column: the level-2 layers a columns workgroup walks, 0 where the runs pass ran.
        return {{"levels", shape_.topLevel + 1}, {"pyramid_bytes", shape_.totalWords * 4},
                {"base_column", columns_ ? column_ : 0}};
    }

protected:
    void addPasses(RenderGraph& graph, const MeshBuffers& mesh, const float& iso, const std::string& prefix) override
    {
        push_ = gridPush();
        HistoPyramidResources r;
        r.volume = importVolumeBuffer(graph, gpuVolume_, prefix + "volume samples");
        r.levels = graph.importBuffer(prefix + "histopyramid level table", levels_.buffer);
        r.caseTable = importCaseTable(graph, prefix);
        // Rebuilt every frame: transients.
        r.pyramid = graph.createBuffer(prefix + "histopyramid levels", std::max<uint64_t>(shape_.totalWords * 4, 16));
        r.dispatch = graph.createBuffer(prefix + "histopyramid dispatch", kHistoPyramidDispatchBytes);
        r.vertices = mesh.vertices;
        r.indices = mesh.indices;
        r.counters = mesh.counters;
        if (columns_)
            base_->add(graph, prefix + "base", r, push_, iso, column_, histoPyramidBaseGroups(shape_, column_));
        else
            baseRuns_->add(graph, prefix + "base", r, push_, iso, histoPyramidBaseRuns(shape_));
        for (uint32_t l = columns_ ? 3 : 2; l < shape_.topLevel; ++l) {
            if (columns_)
                reduce_->add(graph, prefix + "reduce", r, push_, l, entriesOf(l));
            else
                reduceWords_->add(graph, prefix + "reduce", r, push_, l, entriesOf(l));
        }
        prepare_.add(graph, prefix + "prepare", r, push_, iso);
        if (weld_)
            vertices_.add(graph, prefix + "vertices", r, push_, iso);
        triangles_.add(graph, prefix + "triangles", r, push_, iso);
    }

private:
    // The entries of level l: eight per node of level l + 1.
    uint64_t entriesOf(uint32_t l) const
    {
        const std::array<uint32_t, 3>& d = shape_.levels[l + 1].dims;
        return 8 * uint64_t(d[0]) * d[1] * d[2];
    }

    HistoPyramidPush gridPush() const
    {
        HistoPyramidPush push{};
        setGridPush(push, volume_);
        push.topLevel = shape_.topLevel;
        return push;
    }

    Context& context_;
    const Volume& volume_;
    const GpuVolume& gpuVolume_;
    bool weld_;
    HistoPyramidShape shape_;
    bool columns_;    // the base pass: base.comp's columns, or base_runs.comp (histoPyramidBaseInColumns)
    uint32_t column_; // level-2 layers a columns workgroup walks
    std::optional<HistoPyramidBasePass> base_;
    std::optional<HistoPyramidBaseRunsPass> baseRuns_;
    std::optional<HistoPyramidReducePass> reduce_;
    std::optional<HistoPyramidReduceWordsPass> reduceWords_;
    HistoPyramidPreparePass prepare_;
    HistoPyramidVerticesPass vertices_;
    HistoPyramidTrianglesPass triangles_;
    HistoPyramidPush push_{};
    Buffer levels_;
};

} // namespace

std::unique_ptr<GpuExtractor> createHistoPyramidExtractor(Context& context, const FieldSource& field,
                                                          const ExtractOptions& options)
{
    requireVolumeBuffer(field, options, "histopyramid");
    return std::make_unique<HistoPyramidExtractor>(context, field, options);
}

} // namespace isoscope
