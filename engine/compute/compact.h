#pragma once
// Stream compaction: the indices of the selected elements (those with any
// nonzero component), in increasing order, as render-graph passes.
// Reduce-then-scan over selection flags computed on the fly, so no
// flag array is stored (scan_passes.h).
//
//   StreamCompaction compact(context, 2, cellCount);
//   compact.addPasses(graph, {counts}, cellCount, {activeCells}, {activeCount});   // graph buffers
//
// addPasses(): writes the selected indices (uint32) to `indices`, which must
// hold `count` of them, and their number to `selectedCount` as a uint64 (low
// word first, so a uint32 read of it is the count). Any count from 0 to the
// maxCount given at construction, at most 2^32 (indices are 32-bit), and
// count * 4 bytes of indices must fit one storage binding. The graph orders
// later readers (indirect arguments included) after it, as ExclusiveScan.
// Cost: the single pass (as ExclusiveScan) reads the input once and writes
// one word per selected element; reduce-then-scan (when the indices overlap
// the input, or asked for) reads the input twice.
#include <memory>

#include "compute/scan_passes.h"
#include "compute/scan_single_pass.h"

namespace isoscope {

class StreamCompaction {
public:
    StreamCompaction(Context& context, uint32_t components, uint64_t maxCount, const ScanOptions& options = {});

    void addPasses(RenderGraph& graph, GraphSpan input, uint64_t count, GraphSpan indices, GraphSpan selectedCount,
                   const std::string& name = "stream compaction") const;

    static uint64_t scratchBytesFor(const Context& context, uint32_t components, uint64_t maxCount)
    {
        return ScanPasses::scratchBytesFor(context, components, true, maxCount) +
               SinglePassScan::scratchBytesFor(context, components, true, maxCount);
    }

private:
    ScanAlgorithm algorithm_;
    uint32_t components_;
    ScanPasses passes_;
    std::unique_ptr<SinglePassScan> single_;
};

} // namespace isoscope
