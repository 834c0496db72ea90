#pragma once
// The passes of the engine's device-wide reduce-then-scan, shared by
// ExclusiveScan, StreamCompaction and Reduction; use those, not this.
//
//   1. scan_reduce: each workgroup sums one tile of elements into a 64-bit
//      block sum (level 0).
//   2. scan_blocks_reduce, repeated: each workgroup sums `span` block sums of
//      level k into one of level k + 1, until a level fits one workgroup.
//   3. scan_blocks: the top level is scanned by one workgroup (which writes
//      the totals), then every level below, each workgroup starting from its
//      offset in the level above: level 0 ends as exclusive block offsets.
//   4. scan_downsweep: each workgroup rescans its tile from its block offset
//      and writes the prefixes (or the compacted indices).
// With 4096-element tiles and spans of 8192 blocks, up to 33.5M elements need
// no middle level (three passes) and 2^32 elements one (five passes); no pass
// makes one workgroup walk all blocks.
//
// Why keep reduce-then-scan beside the single pass (scan_single_pass.h):
// these passes never wait on each other, and they can scan in place, which
// the single pass cannot. Reductions use passes 1 and 2 only. Cost: the
// input is read twice and the output written once (1.5x a copy's traffic),
// plus 8 bytes per tile per component of block sums.
//
// Memory access: element passes are coalesced (consecutive invocations read
// and write consecutive 16-byte vectors of elements, see the shaders),
// whatever the subgroup size.
//
// Lengths: any count from 0 up; an input longer than one storage-buffer
// binding allows (lavapipe 128 MiB, NVIDIA 4 GiB) is bound segment by segment
// at increasing offsets. Block sums, block offsets and totals are 64-bit
// (uvec2 low word first, no shaderInt64 needed), so counts and sums past 2^32
// are exact there; per-element prefixes are 32-bit (modulo 2^32).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <volk.h>

#include "compute/block_sum_scan.h"
#include "core/memory.h"
#include "core/shader.h"
#include "graph/graph_desc.h"

namespace isoscope {

class Context;
class RenderGraph;

// A place in a graph buffer: elements start `offset` bytes in. Offsets given
// to the primitives must be multiples of the device's
// minStorageBufferOffsetAlignment (at most 256 bytes on every device) and of
// 16 (the element passes load and store 16-byte vectors).
constexpr uint64_t kVectorBytes = 16;
struct GraphSpan {
    ResourceId resource = kNoResource;
    VkDeviceSize offset = 0;
};

// Which passes scan and compaction use. Auto: the single pass
// (scan_single_pass.h) unless the output overlaps the input, where it takes
// reduce-then-scan (the single pass's fallback re-reads other tiles' input).
enum class ScanAlgorithm { Auto, SinglePass, ReduceThenScan };

// Whether [a.offset, a.offset + aBytes) and [b.offset, b.offset + bBytes) share a byte of one buffer.
inline bool spansOverlap(GraphSpan a, uint64_t aBytes, GraphSpan b, uint64_t bBytes)
{
    return a.resource == b.resource && aBytes && bBytes && a.offset < b.offset + bBytes && b.offset < a.offset + aBytes;
}

struct ScanOptions {
    // Bytes one binding may cover; 0: the device's maxStorageBufferRange.
    // Tests set it small to exercise the segment path at small lengths.
    uint64_t maxBindingBytes = 0;
    // Block sums one workgroup of the block-sum levels takes; 0: as many as
    // it can (ScanLayout::maxSpan). Tests set it small to get several levels
    // at small lengths.
    uint32_t span = 0;
    ScanAlgorithm algorithm = ScanAlgorithm::Auto;
    // Elements per invocation in the element passes (a multiple of 4 from 4
    // to 64); 0: 16 one-word or 8 two-word elements. Benchmarks try others.
    uint32_t items = 0;
    // Invocations per workgroup of the element passes; 0: 256 (fewer where
    // the device allows fewer). Benchmarks try others.
    uint32_t workgroupSize = 0;
    // Single pass, for tests: 0, or N to make every look-back reduce tiles
    // k with k % N == N - 1 itself instead of reading what they published,
    // so the fallback path runs whatever the scheduler does.
    uint32_t forceFallbackEvery = 0;
    // Single pass: 64-bit tile states where the device and the length allow
    // (scan_single_pass.h); false keeps the 32-bit words, for tests of that
    // path and for benchmarks comparing the two.
    bool packedTileStates = true;
};

// How the passes tile the input on this device.
struct ScanLayout {
    uint32_t workgroupSize = 0;      // element passes (scan_reduce, scan_downsweep)
    uint32_t items = 0;              // elements per invocation
    uint32_t tileElements = 0;       // workgroupSize * items: one block
    uint32_t blockWorkgroupSize = 0; // block-sum passes (scan_blocks_reduce, scan_blocks)
    uint32_t blockItems = 0;         // block sums per invocation there
    uint32_t maxSpan = 0;            // blockWorkgroupSize * blockItems
    uint32_t span = 0;               // block sums per workgroup, at most maxSpan
    uint64_t segmentElements = 0;    // elements per binding, a multiple of tileElements
};

ScanLayout scanLayout(const Context& context, uint32_t components, const ScanOptions& options);

// Blocks in each level of the hierarchy for `count` elements: level 0 has
// one per tile, each next level one per span of the one below, and the last
// (the top, scanned by one workgroup) at most `span`. Never empty.
std::vector<uint64_t> scanLevelBlocks(const ScanLayout& layout, uint64_t count);

// The same bytes as `words`, as the 16-byte vectors the element passes load
// and store (scan_common.glsl): only whole vectors, the tail is read and
// written word by word. A range of less than one vector keeps the words'
// range (a binding may not be empty); the shader then reads no vector.
DescriptorInfo vectorsOf(const DescriptorInfo& words);

// The input in segments of at most one binding each: (first element, element
// count, first tile, tile count) per segment.
void forEachScanSegment(const ScanLayout& layout, uint64_t count,
                        const std::function<void(uint64_t, uint64_t, uint32_t, uint32_t)>& segment);

// Checks shared by the scans' record(): the count is within what the scan
// was made for, and a span starts on a 16-byte vector.
void checkScanCount(uint64_t count, uint64_t maxCount, const std::string& what);
void checkVectorAligned(GraphSpan span, const std::string& what, const char* role);

class ScanPasses {
public:
    // components: 1 (uint32 elements) or 2 (uvec2 elements). select: sum one
    // flag per element (any component nonzero) instead of the values.
    // downsweep: also build pass 3 (scan and compaction need it, a reduction not).
    ScanPasses(Context& context, uint32_t components, bool select, bool downsweep, uint64_t maxCount,
               const ScanOptions& options, const std::string& what);

    // Bytes of the caller's scratch buffer: the block-sum levels, then 16
    // bytes of totals.
    uint64_t scratchBytes() const { return levels_.scratchBytes() + kTotalsBytes; }
    // Passes 1 to 3, each a graph pass named `name`: block offsets in
    // `scratch`, and the 64-bit totals (one per summed component) at
    // `totals`, or in scratch when `totals.resource` is kNoResource.
    void addBlockOffsets(RenderGraph& graph, const std::string& name, ResourceId scratch, GraphSpan input,
                         uint64_t count, GraphSpan totals) const;
    // Pass 4: prefixes (or, with select, indices) into `output`, which holds
    // `outputWords` 32-bit words from its offset.
    void addDownsweep(RenderGraph& graph, const std::string& name, ResourceId scratch, GraphSpan input,
                      GraphSpan output, uint64_t count, uint64_t outputWords) const;

    const ScanLayout& layout() const { return layout_; }
    uint32_t sumComponents() const { return select_ ? 1 : components_; }

    // Scratch the passes would need, before making them (for memory budgets).
    static uint64_t scratchBytesFor(const Context& context, uint32_t components, bool select, uint64_t maxCount);

private:
    static constexpr uint64_t kTotalsBytes = 16;

    uint32_t components_;
    bool select_;
    uint64_t maxCount_;
    std::string what_;
    ScanLayout layout_;
    ComputeProgram reduce_;
    std::unique_ptr<ComputeProgram> downsweep_;
    BlockSumScan levels_; // passes 2 and 3, and level 0 (the block sums, then offsets)
};

} // namespace isoscope
