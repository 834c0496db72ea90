#pragma once
// The block-sum levels of the device-wide reduce-then-scan (scan_passes.h,
// passes 2 and 3) on their own, for a caller whose own first pass writes the
// block sums: the scan primitives, and extractors that classify and sum in
// one pass instead of storing per-element counts (extract/scan/).
//
//   BlockSumScan sums(context, layout, 3, maxBlocks, "what");
//   ResourceId scratch = graph.createBuffer("block sums", sums.scratchBytes());
//   myPass: binds sums.level0(g, scratch), declares `scratch` StorageWrite; writes blocks * components uvec2 sums
//   sums.addPasses(graph, "scan", scratch, blocks, totals);   // level 0 now holds exclusive block offsets
//
// Level 0 holds, per block, `components` 64-bit values (uvec2, low word
// first), component-interleaved: block b's component c at b * components + c.
// The passes turn them in place into exclusive 64-bit offsets and write the
// `components` 64-bit totals. Up to `span` blocks need one pass, up to span²
// three (a reduce level, the top scan, one scan level down), and so on; each
// level is a graph pass, since each reads what the one before wrote.
// components: 1 to 3.
#include <cstdint>
#include <string>
#include <vector>

#include <volk.h>

#include "core/memory.h"
#include "core/shader.h"
#include "graph/graph_desc.h"

namespace isoscope {

class Context;
class RenderGraph;
struct ScanLayout;

struct GraphSpan;

class BlockSumScan {
public:
    BlockSumScan(Context& context, const ScanLayout& layout, uint32_t components, uint64_t maxBlocks,
                 const std::string& what);

    // Bytes of the caller's scratch buffer (every level).
    uint64_t scratchBytes() const { return scratchBytes_; }
    // Level 0 in `scratch`, for the pass that writes the block sums and the one that reads the offsets.
    DescriptorInfo level0(const RenderGraph& graph, ResourceId scratch) const { return level(graph, scratch, 0); }
    // The passes that scan `blocks` block sums in `scratch` (StorageWrite)
    // and write the totals at `totals`.
    void addPasses(RenderGraph& graph, const std::string& name, ResourceId scratch, uint64_t blocks,
                   GraphSpan totals) const;

    static uint64_t scratchBytesFor(uint32_t span, uint32_t components, uint64_t maxBlocks);
    // Blocks in each level for `blocks` at level 0: each next level one per
    // span of the one below, the last (scanned by one workgroup) at most `span`.
    static std::vector<uint64_t> levelBlocks(uint32_t span, uint64_t blocks);

private:
    DescriptorInfo level(const RenderGraph& graph, ResourceId scratch, size_t k) const;

    uint32_t components_;
    uint32_t span_;
    uint64_t maxBlocks_;
    std::string what_;
    ComputeProgram reduceBlocks_;
    ComputeProgram scanBlocks_;
    std::vector<uint64_t> levelOffsets_; // bytes into the scratch, one per level of maxBlocks
    std::vector<uint64_t> levelBytes_;
    uint64_t scratchBytes_ = 0;
};

} // namespace isoscope
