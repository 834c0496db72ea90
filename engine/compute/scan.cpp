#include "compute/scan.h"

namespace isoscope {

ExclusiveScan::ExclusiveScan(Context& context, uint32_t components, uint64_t maxCount, const ScanOptions& options)
    : passes_(context, components, false, true, maxCount, options, "exclusive scan")
{
}

void ExclusiveScan::record(VkCommandBuffer cmd, BufferSpan input, BufferSpan output, uint64_t count,
                           BufferSpan totals) const
{
    passes_.recordBlockOffsets(cmd, input, count, totals);
    passes_.recordDownsweep(cmd, input, output, count, 0);
}

} // namespace isoscope
