#pragma once
// The block-sum levels of the device-wide reduce-then-scan (scan_passes.h,
// passes 2 and 3) on their own, for a caller whose own first pass writes the
// block sums: the scan primitives, and extractors that classify and sum in
// one pass instead of storing per-element counts (extract/scan/).
//
//   BlockSumScan sums(context, layout, 3, maxBlocks, "what");
//   myPass.bind(cmd, {..., sums.level0()});      // writes blocks * components uvec2 sums
//   sums.record(cmd, blocks, {totals.buffer});   // level 0 now holds exclusive block offsets
//
// Level 0 holds, per block, `components` 64-bit values (uvec2, low word
// first), component-interleaved: block b's component c at b * components + c.
// record() turns them in place into exclusive 64-bit offsets and writes the
// `components` 64-bit totals. Up to `span` blocks need one pass, up to span²
// three (a reduce level, the top scan, one scan level down), and so on.
// components: 1 to 3. The caller orders its writes of level 0 before
// record(); record() ends with a compute-to-compute barrier.
#include <cstdint>
#include <string>
#include <vector>

#include <volk.h>

#include "core/memory.h"
#include "core/shader.h"

namespace isoscope {

class Context;
struct ScanLayout;
struct BufferSpan;

class BlockSumScan {
public:
    BlockSumScan(Context& context, const ScanLayout& layout, uint32_t components, uint64_t maxBlocks,
                 const std::string& what);

    // Level 0, for the pass that writes the block sums and the one that reads the offsets.
    DescriptorInfo level0() const { return level(0); }
    void record(VkCommandBuffer cmd, uint64_t blocks, BufferSpan totals) const;

    uint64_t scratchBytes() const { return blockSums_.allocated; }
    static uint64_t scratchBytesFor(uint32_t span, uint32_t components, uint64_t maxBlocks);
    // Blocks in each level for `blocks` at level 0: each next level one per
    // span of the one below, the last (scanned by one workgroup) at most `span`.
    static std::vector<uint64_t> levelBlocks(uint32_t span, uint64_t blocks);

private:
    DescriptorInfo level(size_t k) const;
    void dispatchBlocks(VkCommandBuffer cmd, const ComputeProgram& program, uint64_t blocks) const;

    Context& context_;
    uint32_t components_;
    uint32_t span_;
    uint64_t maxBlocks_;
    std::string what_;
    ComputeProgram reduceBlocks_;
    ComputeProgram scanBlocks_;
    std::vector<uint64_t> levelOffsets_; // bytes into blockSums_, one per level of maxBlocks
    std::vector<uint64_t> levelBytes_;
    Buffer blockSums_;                   // every level
};

} // namespace isoscope
