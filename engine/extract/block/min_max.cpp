#include "extract/block/min_max.h"

#include <algorithm>
#include <string>

#include "core/context.h"
#include "core/error.h"
#include "core/math_util.h"
#include "extract/block/block_layout.h"
#include "graph/render_graph.h"
#include "volume/gpu_volume.h"

namespace isoscope {

namespace {

constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                        VK_BUFFER_USAGE_TRANSFER_SRC_BIT;

// Enough for any fixed-size part of the block layout's buffers.
constexpr VkDeviceSize kPlaceholderBytes = 256;

} // namespace

BlockValueRanges::BlockValueRanges(Context& context, const FieldSource& field, std::array<uint32_t, 3> block,
                                   RangeCoverage coverage, bool analyticCayley, RangeWalkShape shape)
    : context_(context), block_(block), coverage_(coverage)
{
    const Volume& volume = *field.volume;
    const DeviceInfo& info = context.info();
    if (block[0] == 0 || block[1] == 0 || block[2] == 0)
        fail("a value-range block needs at least one voxel on each side");
    groupSize_ = std::min<uint32_t>(256, info.maxWorkgroupInvocations());
    uint32_t reach = coverage == RangeCoverage::Cells ? 1 : 0;

    // Binds a valid image where the shader never reads one.
    auto usePlaceholderImage = [&] {
        Volume placeholder;
        placeholder.dims = {2, 2, 2};
        placeholder.type = ScalarType::Float32;
        placeholder.data.resize(8 * sizeof(float));
        placeholderVolume_ = std::make_unique<GpuVolume>(context, placeholder);
        image_ = placeholderVolume_.get();
    };
    if (analyticCayley) {
        usePlaceholderImage();
    } else {
        if (!field.gpuVolume)
            fail("block value ranges need the volume on the GPU");
        image_ = field.gpuVolume;
    }

    for (int i = 0; i < 3; ++i) {
        blockCounts_[i] = (volume.dims[i] + block[i] - 1) / block[i];
        parameters_.dims[i] = int32_t(volume.dims[i]);
        parameters_.blockCounts[i] = blockCounts_[i];
        parameters_.origin[i] = float(volume.origin[i]);
        parameters_.spacing[i] = float(volume.spacing[i]);
    }
    parameters_.volumePlanes = volume.dims[2];
    parameters_.valueScale = image_->valueScale();
    // Integer data in a normalized image: shaders round back to the exact integer.
    parameters_.roundValues = !analyticCayley && volume.type != ScalarType::Float32 && image_->valueScale() != 1.0f;

    // 8-bit cell ranges as two bytes; the range passes then pair blocks
    // along x in one workgroup, which needs room for two blocks per run.
    byteRanges_ = coverage == RangeCoverage::Cells && !analyticCayley && volume.type == ScalarType::UInt8 &&
                  groupSize_ >= 2 * block[0];
    SpecValues values = {{"BLOCK_X", block[0]}, {"BLOCK_Y", block[1]},        {"BLOCK_Z", block[2]},
                         {"FIELD", analyticCayley ? 1u : 0u}, {"CELL_RANGES", reach},
                         {"BYTE_RANGES", byteRanges_ ? 1u : 0u}};
    if (!analyticCayley)
        planWordSlabs(field);
    // A volume uploaded without its image (the dual method's): the raw words only.
    if (!analyticCayley && !field.gpuVolume->image().image) {
        if (wordSlabs_.empty())
            fail("block value ranges of a volume without its image need its rows as whole 32-bit words in one "
                 "storage binding (engine bug: the method must ask for the image)");
        usePlaceholderImage();
    }
    if (!wordSlabs_.empty()) {
        walk_ = planWordWalk(uint32_t(scalarSize(volume.type)), shape);
        SpecValues wordValues = walkValues(values, walk_);
        wordValues.push_back({"RANGE_WORDS", walk_.words});
        wordValues.push_back({"RANGE_SCALAR", uint32_t(volume.type)});
        minMaxWords_.emplace(context, loadShader("extract/block/min_max_words"), wordValues);
    } else {
        walk_ = planWalk(1, volume.dims[0], false);
        minMax_.emplace(context, loadShader("extract/block/min_max"), walkValues(values, walk_));
    }

    const ComputeProgram& program = minMaxWords_ ? *minMaxWords_ : *minMax_;
    checkPushLayout(program.name(), program.pushMembers(), blockParameterMembers());

    Allocator& allocator = context.allocator();
    uint64_t rangeWords = byteRanges_ ? uint64_t(blockCounts_[0] + 1) / 2 * blockCounts_[1] * blockCounts_[2]
                                      : blockCount();
    ranges_ = allocator.createBuffer(rangeWords * 4, kStorage, MemoryUsage::DeviceLocal, "block value ranges");
    placeholder_ = allocator.createBuffer(kPlaceholderBytes, kStorage, MemoryUsage::DeviceLocal,
                                          "unused block-layout bindings");
}

BlockValueRanges::~BlockValueRanges() = default;

uint64_t BlockValueRanges::allocatedBytes() const
{
    return ranges_.allocated + placeholder_.allocated + (placeholderVolume_ ? placeholderVolume_->deviceBytes() : 0);
}

// The z-slabs of block layers that min_max_words binds one storage range
// each for (a 1024³ float32 volume is past the 4 GiB a binding may span;
// with cell ranges a slab also holds the sample slice after its last layer), or
// none where the raw bytes cannot be read as whole words per block row or are
// not on the device: min_max reads the image then.
void BlockValueRanges::planWordSlabs(const FieldSource& field)
{
    const Volume& volume = *field.volume;
    if (!field.gpuVolume || !field.gpuVolume->buffer())
        return;
    uint64_t sampleBytes = scalarSize(volume.type);
    uint64_t rowBytes = uint64_t(volume.dims[0]) * sampleBytes;
    if (rowBytes % 4 || (block_[0] * sampleBytes) % 4)
        return;
    const DeviceInfo& info = context_.info();
    uint64_t sliceBytes = rowBytes * volume.dims[1];
    uint64_t layerBytes = sliceBytes * block_[2];
    uint64_t overlapBytes = coverage_ == RangeCoverage::Cells ? sliceBytes : 0;
    if (info.maxStorageBufferRange < layerBytes + overlapBytes)
        return;
    uint64_t layersPerSlab = std::min<uint64_t>((info.maxStorageBufferRange - overlapBytes) / layerBytes,
                                                info.maxComputeWorkGroupCount[2]);
    std::vector<WordSlab> slabs;
    uint64_t totalBytes = field.gpuVolume->buffer().size;
    for (uint32_t layer = 0; layer < blockCounts_[2]; layer += uint32_t(layersPerSlab)) {
        WordSlab slab;
        slab.firstBlockLayer = layer;
        slab.blockLayers = uint32_t(std::min<uint64_t>(layersPerSlab, blockCounts_[2] - layer));
        slab.offset = layer * layerBytes;
        slab.bytes = std::min<uint64_t>(totalBytes - slab.offset, slab.blockLayers * layerBytes + overlapBytes);
        if (slab.offset % info.minStorageBufferOffsetAlignment)
            return;
        slabs.push_back(slab);
    }
    wordSlabs_ = std::move(slabs);
    volumeBuffer_ = field.gpuVolume->buffer().buffer;
    parameters_.rowWords = uint32_t(rowBytes / 4);
}

// How the range passes (range_walk.glsl) cut the volume: lanes of
// `laneSamples` samples along x, as many as cover a row, in runs that hold
// whole blocks (whole pairs with byte ranges); each lane walks `rows` block
// rows and a workgroup `layers` block layers, so that the rows and slices
// two blocks share inside a walk are read once (only the row and slice
// after a walk are read again).
BlockValueRanges::RangeWalk BlockValueRanges::planWalk(uint32_t laneSamples, uint32_t chunksPerRow, bool rawWords) const
{
    // Chunks hold several whole blocks (an even number), or a block spans
    // several chunks.
    uint32_t blocksPerChunk = laneSamples > block_[0] ? laneSamples / block_[0] : 1;
    uint32_t lanesPerBlock = blocksPerChunk == 1 ? block_[0] / laneSamples : 1;
    uint32_t unit = byteRanges_ && blocksPerChunk == 1 ? 2 * lanesPerBlock : lanesPerBlock;
    if (unit > groupSize_)
        fail("block width " + std::to_string(block_[0]) + " needs " + std::to_string(unit) +
             " invocations per workgroup for its value ranges; this device allows " + std::to_string(groupSize_) +
             ": choose a narrower block");
    RangeWalk walk;
    walk.laneSamples = laneSamples;
    walk.chunksPerRow = chunksPerRow;
    walk.lanesX = std::min((chunksPerRow + unit - 1) / unit * unit, groupSize_ / unit * unit);
    walk.lanesY = groupSize_ / walk.lanesX;
    // Walk lengths (block rows a lane walks, block layers a workgroup walks):
    // longer walks re-read fewer boundary rows and slices but leave too few
    // workgroups in flight; these were the fastest measured (docs/BENCHMARKS.md).
    uint32_t rowSamples = rawWords ? 4 : 8, layerSamples = rawWords ? 8 : 16;
    walk.rows = std::max<uint32_t>(1, rowSamples / block_[1]);
    walk.layers = std::max<uint32_t>(1, layerSamples / block_[2]);
    // 16 samples a lane (8-bit words): a walk twice as long in z where it
    // still leaves 4,096 workgroups, faster on the H100 at 1024³ (not
    // measured with fewer, where longer walks lost before).
    if (rawWords && laneSamples == 16) {
        uint64_t groups = uint64_t(ceilDiv(blockCounts_[0], walk.lanesX * laneSamples / block_[0])) *
                          ceilDiv(blockCounts_[1], walk.lanesY * walk.rows) *
                          ceilDiv(blockCounts_[2], std::max<uint32_t>(1, 2 * layerSamples / block_[2]));
        if (groups >= 4096)
            walk.layers = std::max<uint32_t>(1, 2 * layerSamples / block_[2]);
    }
    return walk;
}

// The raw-word walk: the widest 16-byte-or-narrower load that keeps chunks
// aligned to blocks and rows, with at most 4 blocks a chunk (range_walk.glsl's
// MAX_SEGMENTS), walked as planWalk says; or `shape` where given.
BlockValueRanges::RangeWalk BlockValueRanges::planWordWalk(uint32_t sampleBytes, RangeWalkShape shape) const
{
    uint32_t samplesPerWord = 4 / sampleBytes;
    uint32_t blockWords = block_[0] * sampleBytes / 4;
    auto fits = [&](uint32_t v) {
        bool aligned = parameters_.rowWords % v == 0 && (blockWords % v == 0 || v % blockWords == 0);
        return aligned && v * samplesPerWord <= 4 * block_[0];
    };
    auto walkOf = [&](uint32_t words) {
        RangeWalk walk = planWalk(words * samplesPerWord, parameters_.rowWords / words, true);
        walk.words = words;
        return walk;
    };
    if (shape.words || shape.rows || shape.layers) {
        uint32_t words = shape.words ? shape.words : 1;
        if (!shape.words)
            for (uint32_t v : {4u, 2u})
                if (fits(v)) {
                    words = v;
                    break;
                }
        if (words != 1 && words != 2 && words != 4 && words != 8 && words != 16)
            fail("a range walk reads 1, 2, 4, 8 or 16 words a lane, not " + std::to_string(words));
        if (!fits(words))
            fail("a range walk of " + std::to_string(words) + " words a lane does not fit rows of " +
                 std::to_string(parameters_.rowWords) + " words and blocks of " + std::to_string(blockWords));
        RangeWalk walk = walkOf(words);
        walk.rows = shape.rows ? shape.rows : walk.rows;
        walk.layers = shape.layers ? shape.layers : walk.layers;
        return walk;
    }
    uint32_t words = 1;
    for (uint32_t v : {4u, 2u})
        if (fits(v)) {
            words = v;
            break;
        }
    RangeWalk walk = walkOf(words);
    // float32 in 16-byte lanes: twice the block layers (half the slices read
    // twice) where that still leaves 2,048 workgroups, faster on the H100 at
    // 512³ and 1024³ (docs/BENCHMARKS.md); other types keep their walks.
    if (sampleBytes == 4 && words == 4) {
        RangeWalk longer = walk;
        longer.layers = 2 * walk.layers;
        if (walkGroups(longer) >= 2048)
            walk = longer;
    }
    return walk;
}

// Workgroups a walk of the whole volume dispatches.
uint64_t BlockValueRanges::walkGroups(const RangeWalk& walk) const
{
    uint32_t blocksX = std::max<uint32_t>(1, walk.lanesX * walk.laneSamples / block_[0]);
    return uint64_t(ceilDiv(blockCounts_[0], blocksX)) * ceilDiv(blockCounts_[1], walk.lanesY * walk.rows) *
           ceilDiv(blockCounts_[2], walk.layers);
}

SpecValues BlockValueRanges::walkValues(SpecValues values, const RangeWalk& walk)
{
    values.push_back({"WORKGROUP_SIZE", walk.lanesX * walk.lanesY});
    values.push_back({"RANGE_LANES_X", walk.lanesX});
    values.push_back({"RANGE_ROWS", walk.rows});
    values.push_back({"RANGE_LAYERS", walk.layers});
    values.push_back({"RANGE_LANE_SAMPLES", walk.laneSamples});
    return values;
}

BlockBox BlockValueRanges::regionBlocks(const VolumeRegion& region) const
{
    const uint32_t reach = coverage_ == RangeCoverage::Cells ? 1 : 0;
    BlockBox box;
    for (int a = 0; a < 3; ++a) {
        uint32_t first = region.offset[a], last = region.offset[a] + region.extent[a] - 1;
        box.first[a] = (first > reach ? first - reach : 0) / block_[a];
        box.end[a] = std::min(last / block_[a] + 1, blockCounts_[a]);
    }
    if (byteRanges_) { // pairs along x share a word
        box.first[0] &= ~1u;
        box.end[0] = std::min(box.end[0] + (box.end[0] & 1u), blockCounts_[0]);
    }
    return box;
}

// The workgroups that walk the box: along x and y those holding its blocks
// (the shader starts at the one of rangeFirstBlock and stores only the
// box's); along z its layers from its first, per word slab.
void BlockValueRanges::recordBox(VkCommandBuffer cmd, const RenderGraph& g, const ComputeProgram& program,
                                 const BlockLayout& layout, const BlockBox& box) const
{
    BlockParameters parameters = parameters_;
    for (int a = 0; a < 2; ++a) {
        parameters.rangeFirstBlock[a] = box.first[a];
        parameters.rangeEndBlock[a] = box.end[a];
    }
    const uint32_t blocksPerGroupX = walk_.lanesX * walk_.laneSamples / block_[0];
    const uint32_t blocksPerGroupY = walk_.lanesY * walk_.rows;
    const uint32_t groupsX = groupCount(box.end[0], blocksPerGroupX) - box.first[0] / blocksPerGroupX;
    const uint32_t groupsY = groupCount(box.end[1], blocksPerGroupY) - box.first[1] / blocksPerGroupY;
    auto walkLayers = [&](uint32_t bound, uint32_t boundLayers, std::optional<DescriptorInfo> words) {
        uint32_t first = std::max(box.first[2], bound), end = std::min(box.end[2], bound + boundLayers);
        if (first >= end)
            return;
        parameters.firstBlockLayer = bound;
        parameters.layerOffset = first - bound;
        parameters.layerCount = end - bound;
        bindBlockLayout(cmd, g, program, layout, parameters, words);
        program.dispatch(cmd, groupsX, groupsY, groupCount(end - first, walk_.layers));
    };
    if (!minMaxWords_) {
        walkLayers(0, blockCounts_[2], std::nullopt);
        return;
    }
    for (const WordSlab& slab : wordSlabs_)
        walkLayers(slab.firstBlockLayer, slab.blockLayers, DescriptorInfo(volumeBuffer_, slab.offset, slab.bytes));
}

void BlockValueRanges::addBoxPass(RenderGraph& graph, ResourceId ranges, const std::string& name,
                                  const BlockBox& box) const
{
    // The block layout (block_layout.h): this pass reads the image or the
    // volume's words and writes the ranges; the rest get a placeholder.
    ResourceId placeholder = graph.importBuffer(name + " placeholder", placeholder_.buffer);
    BlockLayout layout;
    std::fill(std::begin(layout.resources), std::end(layout.resources), placeholder);
    layout.resources[kBlockVolume] = importVolumeImage(graph, *image_, name + " volume");
    layout.resources[kBlockRanges] = ranges;
    if (minMaxWords_)
        layout.resources[kBlockVolumeWords] = graph.importBuffer(name + " volume samples", volumeBuffer_);
    layout.sampler = image_->linearSampler();
    const ComputeProgram& program = minMaxWords_ ? *minMaxWords_ : *minMax_;
    graph.addComputePass(name, program, blockUses(layout, {kBlockRanges}),
                         [this, layout, &program, box](VkCommandBuffer cmd, const RenderGraph& g) {
                             recordBox(cmd, g, program, layout, box);
                         });
}

void BlockValueRanges::addPass(RenderGraph& graph, ResourceId ranges, const std::string& name) const
{
    addBoxPass(graph, ranges, name, BlockBox{{0, 0, 0}, blockCounts_});
}

void BlockValueRanges::addRegionPass(RenderGraph& graph, const VolumeRegion& region, const std::string& name) const
{
    // Frames in flight may still read (or, the block method's first, write)
    // the ranges; frames after read them.
    const ResourceState afterEarlierWork{VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT};
    const ResourceState visibleToLaterWork{VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT};
    ResourceId ranges = graph.importBuffer(name + " ranges", ranges_.buffer, afterEarlierWork, visibleToLaterWork);
    addBoxPass(graph, ranges, name, regionBlocks(region));
}

void BlockValueRanges::computeNow() const
{
    RenderGraph graph(context_);
    ResourceId ranges = graph.importBuffer("block value ranges", ranges_.buffer, {},
                                           ResourceState{VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                                                         VK_ACCESS_2_MEMORY_READ_BIT});
    addPass(graph, ranges, "min_max");
    graph.compile();
    graph.execute();
}

} // namespace isoscope
