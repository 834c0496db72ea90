#include "compute/reduce.h"

#include "graph/render_graph.h"

#include "core/error.h"

namespace isoscope {

Reduction::Reduction(Context& context, uint32_t components, uint64_t maxCount, const ScanOptions& options)
    : passes_(context, components, false, false, maxCount, options, "reduction")
{
}

void Reduction::addPasses(RenderGraph& graph, GraphSpan input, uint64_t count, GraphSpan totals,
                          const std::string& name) const
{
    if (totals.resource == kNoResource)
        fail("reduction needs a buffer for its totals (engine bug)");
    ResourceId scratch = graph.createBuffer(name + " scratch", passes_.scratchBytes());
    passes_.addBlockOffsets(graph, name, scratch, input, count, totals);
}

} // namespace isoscope
