#include "compute/scan.h"

#include "graph/render_graph.h"

#include "core/error.h"

namespace isoscope {

ExclusiveScan::ExclusiveScan(Context& context, uint32_t components, uint64_t maxCount, const ScanOptions& options)
    : algorithm_(options.algorithm), passes_(context, components, false, true, maxCount, options, "exclusive scan")
{
    if (algorithm_ != ScanAlgorithm::ReduceThenScan)
        single_ = std::make_unique<SinglePassScan>(context, components, false, maxCount, options, "exclusive scan");
}

void ExclusiveScan::addPasses(RenderGraph& graph, GraphSpan input, GraphSpan output, uint64_t count,
                              GraphSpan totals, const std::string& name) const
{
    uint64_t bytes = count * 4 * passes_.sumComponents();
    if (single_ && !spansOverlap(input, bytes, output, bytes)) {
        lastScratch_ = graph.createBuffer(name + " scratch", single_->scratchBytes());
        single_->addPasses(graph, name, lastScratch_, input, output, count, 0, totals);
        return;
    }
    if (algorithm_ == ScanAlgorithm::SinglePass)
        fail("exclusive scan: the single pass cannot scan in place (its output overlaps its input); use "
             "ScanAlgorithm::Auto or ReduceThenScan");
    lastScratch_ = graph.createBuffer(name + " scratch", passes_.scratchBytes());
    passes_.addBlockOffsets(graph, name, lastScratch_, input, count, totals);
    passes_.addDownsweep(graph, name, lastScratch_, input, output, count, 0);
}

} // namespace isoscope
