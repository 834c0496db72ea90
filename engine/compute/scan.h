#pragma once
// Device-wide exclusive prefix sum of uint32 or uvec2 elements (two counts
// scanned at once, e.g. vertices and triangles per cell), as render-graph
// passes. The single pass (scan_single_pass.h) by default,
// reduce-then-scan (scan_passes.h) in place or when the options ask for it.
//
//   ExclusiveScan scan(context, 2, cellCount);           // once: pipelines
//   scan.addPasses(graph, {counts}, {offsets}, cellCount, {totals});   // graph buffers
//
// addPasses(): output[i] = sum of input[0..i) per component, modulo 2^32; the
// 64-bit totals (components × uint64, low word first) go to `totals` when
// given. Input and output may be the same span (in place). Any count from 0
// to the maxCount given at construction (beyond 2^31: inputs longer than one
// binding are processed in segments). The graph orders the passes after what
// writes the input and before what reads the outputs; the scratch is one
// graph transient.
// Cost: single pass, the input read once and the output written once (a
// copy's traffic) plus a fill of its tile states (8 or 24 bytes per tile of
// 2048 to 8192 elements per component, scan_single_pass.h);
// reduce-then-scan reads the input twice (1.5x a copy's traffic) in three
// passes up to 33.5M elements, five beyond.
#include <memory>

#include "compute/scan_passes.h"
#include "compute/scan_single_pass.h"

namespace isoscope {

class ExclusiveScan {
public:
    ExclusiveScan(Context& context, uint32_t components, uint64_t maxCount, const ScanOptions& options = {});

    void addPasses(RenderGraph& graph, GraphSpan input, GraphSpan output, uint64_t count, GraphSpan totals = {},
                   const std::string& name = "exclusive scan") const;

    static uint64_t scratchBytesFor(const Context& context, uint32_t components, uint64_t maxCount)
    {
        return ScanPasses::scratchBytesFor(context, components, false, maxCount) +
               SinglePassScan::scratchBytesFor(context, components, false, maxCount);
    }
    // The scratch transient of the last addPasses (benchmarks read the
    // single pass's fallback count from it).
    ResourceId lastScratch() const { return lastScratch_; }
    // The single pass, when it was made (benchmarks read its fallback count).
    const SinglePassScan* singlePass() const { return single_.get(); }

private:
    ScanAlgorithm algorithm_;
    ScanPasses passes_;
    std::unique_ptr<SinglePassScan> single_;
    mutable ResourceId lastScratch_ = kNoResource;
};

} // namespace isoscope
