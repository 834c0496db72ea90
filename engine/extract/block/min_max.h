#pragma once
// Pass 1 of Parallel Marching Blocks (Liu et al. 2016, section 4.1) on its
// own: the value range of every voxel block, 4 bytes per block (two halves
// rounded outward, shaders/extract/block/half_range.glsl), or 2 for 8-bit
// volumes with cell coverage (the bytes themselves). The block
// extractor lists the blocks an isosurface can cross from these ranges; the
// raycasters skip empty space with the same ranges over larger bricks.
//
// Reads the raw bytes (min_max_words.comp, one load of up to 16 bytes a lane)
// where the volume's buffer is on the device and every block row is whole
// words, otherwise the 3D image (min_max.comp); both walk rows and slices so
// that each sample is read about once (range_walk.glsl). The ranges cover
// each block's own voxels (RangeCoverage::Voxels: the raycasters, which union
// a brick with its neighbours), or the samples of the block's cells
// (RangeCoverage::Cells: its voxels and the one-voxel overlap on its upper
// faces, so that the extractor lists a block exactly when its cells straddle
// the isovalue).
//
//   BlockValueRanges ranges(context, field, {8, 8, 8}, RangeCoverage::Voxels);
//   ResourceId id = graph.importBuffer("ranges", ranges.buffer().buffer);
//   ranges.addPass(graph, id, "min_max");   // later passes read `id`
//   ranges.computeNow();                    // or at set-up, on a graph of its own
//   ranges.addRegionPass(graph, region, "min_max region"); // after samples changed: their blocks only
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/memory.h"
#include "core/shader.h"
#include "extract/block/block_parameters.h"
#include "extract/gpu_extractor.h"
#include "graph/graph_desc.h"
#include "volume/volume_region.h"

namespace isoscope {

class GpuVolume;
class RenderGraph;
struct BlockLayout;

enum class RangeCoverage { Voxels, Cells };

// How the range walk (shaders/extract/block/range_walk.glsl) reads the raw
// words, where a caller names it (tests cover every shape): words a lane
// reads per row (1, 2, 4, 8 or 16), block rows a lane walks, block layers a
// workgroup walks; 0 leaves the planner's choice.
struct RangeWalkShape {
    uint32_t words = 0, rows = 0, layers = 0;
};

// Blocks [first, end) along each axis.
struct BlockBox {
    std::array<uint32_t, 3> first{0, 0, 0};
    std::array<uint32_t, 3> end{0, 0, 0};
};

class BlockValueRanges {
public:
    // `analyticCayley`: the Cayley field is evaluated in the shader instead of
    // read (the volume's samples need not exist; its dims, origin and spacing
    // define the grid). Throws Error when the block does not fit a workgroup.
    // `shape` (raw words only) replaces the planner's walk; Error where its
    // words do not fit the rows and blocks.
    BlockValueRanges(Context& context, const FieldSource& field, std::array<uint32_t, 3> block,
                     RangeCoverage coverage, bool analyticCayley = false, RangeWalkShape shape = {});
    ~BlockValueRanges();
    BlockValueRanges(const BlockValueRanges&) = delete;
    BlockValueRanges& operator=(const BlockValueRanges&) = delete;

    // Adds the pass that writes the ranges into `ranges`, the graph's import
    // of buffer(); it imports what it reads (the volume) itself.
    void addPass(RenderGraph& graph, ResourceId ranges, const std::string& name) const;
    // Computes the ranges on a graph of its own and waits: per-volume state
    // made once at set-up, visible to every later submission.
    void computeNow() const;
    // After the samples of `region` changed (written by work submitted
    // before this graph runs): adds the pass that writes the ranges of
    // regionBlocks(region) only, the others kept. It imports the ranges so
    // that they wait for earlier work (frames in flight may read them) and
    // are visible to all later work.
    void addRegionPass(RenderGraph& graph, const VolumeRegion& region, const std::string& name) const;
    // The blocks whose ranges hold a sample of `region`: those its samples
    // lie in and, with cell coverage, the blocks before them whose upper
    // faces reach them; with byte ranges whole pairs along x (one word).
    BlockBox regionBlocks(const VolumeRegion& region) const;
    // A small buffer for bindings of the block layout a pass does not use.
    const Buffer& placeholder() const { return placeholder_; }

    // Per block two halves rounded outward (4 bytes), or, where byteRanges(),
    // the minimum and maximum byte with pairs of blocks along x in one word
    // (byteRangeWord in shaders/extract/block/block_common.glsl).
    const Buffer& buffer() const { return ranges_; }
    // 8-bit volumes with cell coverage (exact, and half the bytes).
    bool byteRanges() const { return byteRanges_; }
    std::array<uint32_t, 3> blockCounts() const { return blockCounts_; }
    uint64_t blockCount() const { return uint64_t(blockCounts_[0]) * blockCounts_[1] * blockCounts_[2]; }
    // The grid's push constants as the block shaders read them (iso and
    // list capacity left for the caller).
    const BlockParameters& parameters() const { return parameters_; }
    // Streamed slabs (GpuExtractor::placeSlab): where the grid lies in the
    // whole volume and in its image, for the passes recorded from now on.
    void placeSlab(int32_t firstPlane, uint32_t imagePlanesBelow)
    {
        parameters_.firstPlane = firstPlane;
        parameters_.imagePlanesBelow = imagePlanesBelow;
    }
    // The image the block shaders bind at binding 0 (a placeholder for analytic fields).
    const GpuVolume& image() const { return *image_; }
    // Bytes this object allocated: the ranges, and the placeholders.
    uint64_t allocatedBytes() const;

private:
    struct WordSlab {
        uint32_t firstBlockLayer = 0, blockLayers = 0;
        VkDeviceSize offset = 0, bytes = 0;
    };
    // How range_walk.glsl cuts the volume into workgroups.
    struct RangeWalk {
        uint32_t laneSamples = 1, chunksPerRow = 0; // samples a lane reads per row; lanes per x-row
        uint32_t lanesX = 0, lanesY = 0;            // the workgroup
        uint32_t rows = 1, layers = 1;              // block rows a lane walks, block layers a workgroup walks
        uint32_t words = 0;                         // raw words a lane reads per row (0: texels)
    };
    void planWordSlabs(const FieldSource& field);
    RangeWalk planWalk(uint32_t laneSamples, uint32_t chunksPerRow, bool rawWords) const;
    RangeWalk planWordWalk(uint32_t sampleBytes, RangeWalkShape shape) const;
    uint64_t walkGroups(const RangeWalk& walk) const;
    static SpecValues walkValues(SpecValues values, const RangeWalk& walk);
    void addBoxPass(RenderGraph& graph, ResourceId ranges, const std::string& name, const BlockBox& box) const;
    void recordBox(VkCommandBuffer cmd, const RenderGraph& graph, const ComputeProgram& program,
                   const BlockLayout& layout, const BlockBox& box) const;

    Context& context_;
    std::array<uint32_t, 3> block_;
    RangeCoverage coverage_;
    uint32_t groupSize_ = 0;
    RangeWalk walk_;
    bool byteRanges_ = false;
    std::array<uint32_t, 3> blockCounts_{};
    BlockParameters parameters_{};
    std::unique_ptr<GpuVolume> placeholderVolume_;
    const GpuVolume* image_ = nullptr;
    std::vector<WordSlab> wordSlabs_;
    VkBuffer volumeBuffer_ = VK_NULL_HANDLE;
    std::optional<ComputeProgram> minMax_, minMaxWords_;
    Buffer ranges_;
    Buffer placeholder_; // bound to the bindings of the block layout this pass does not use
};

} // namespace isoscope
