#include "compute/reduce.h"

#include "core/error.h"

namespace isoscope {

Reduction::Reduction(Context& context, uint32_t components, uint64_t maxCount, const ScanOptions& options)
    : passes_(context, components, false, false, maxCount, options, "reduction")
{
}

void Reduction::record(VkCommandBuffer cmd, BufferSpan input, uint64_t count, BufferSpan totals) const
{
    if (!totals.buffer)
        fail("reduction needs a buffer for its totals (engine bug)");
    passes_.recordBlockOffsets(cmd, input, count, totals);
    computeOutputBarrier(cmd);
}

} // namespace isoscope
