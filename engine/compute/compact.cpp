#include "compute/compact.h"

#include "graph/render_graph.h"

#include "core/context.h"
#include "core/error.h"

namespace isoscope {

StreamCompaction::StreamCompaction(Context& context, uint32_t components, uint64_t maxCount, const ScanOptions& options)
    : algorithm_(options.algorithm), components_(components),
      passes_(context, components, true, true, maxCount, options, "stream compaction")
{
    if (maxCount > (uint64_t(1) << 32))
        fail("stream compaction of " + std::to_string(maxCount) +
             " elements: its indices are 32-bit, so at most 2^32 elements; compact in parts");
    if (maxCount * 4 > context.info().maxStorageBufferRange)
        fail("stream compaction of " + std::to_string(maxCount) + " elements may select " +
             formatBytes(maxCount * 4) + " of indices; " + context.info().name + " binds at most " +
             formatBytes(context.info().maxStorageBufferRange) + ": compact in parts");
    if (algorithm_ != ScanAlgorithm::ReduceThenScan)
        single_ = std::make_unique<SinglePassScan>(context, components, true, maxCount, options, "stream compaction");
}

void StreamCompaction::addPasses(RenderGraph& graph, GraphSpan input, uint64_t count, GraphSpan indices,
                                 GraphSpan selectedCount, const std::string& name) const
{
    if (selectedCount.resource == kNoResource)
        fail("stream compaction needs a buffer for the selected count (engine bug)");
    if (single_ && !spansOverlap(input, count * 4 * components_, indices, count * 4)) {
        ResourceId scratch = graph.createBuffer(name + " scratch", single_->scratchBytes());
        single_->addPasses(graph, name, scratch, input, indices, count, count, selectedCount);
        return;
    }
    if (algorithm_ == ScanAlgorithm::SinglePass)
        fail("stream compaction: the single pass cannot write indices over its input; use ScanAlgorithm::Auto or "
             "ReduceThenScan");
    ResourceId scratch = graph.createBuffer(name + " scratch", passes_.scratchBytes());
    passes_.addBlockOffsets(graph, name, scratch, input, count, selectedCount);
    passes_.addDownsweep(graph, name, scratch, input, indices, count, count);
}

} // namespace isoscope
