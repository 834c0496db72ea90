#include "compute/scan.h"

#include "core/error.h"

namespace isoscope {

ExclusiveScan::ExclusiveScan(Context& context, uint32_t components, uint64_t maxCount, const ScanOptions& options)
    : algorithm_(options.algorithm), passes_(context, components, false, true, maxCount, options, "exclusive scan")
{
    if (algorithm_ != ScanAlgorithm::ReduceThenScan)
        single_ = std::make_unique<SinglePassScan>(context, components, false, maxCount, options, "exclusive scan");
}

void ExclusiveScan::record(VkCommandBuffer cmd, BufferSpan input, BufferSpan output, uint64_t count,
                           BufferSpan totals) const
{
    uint64_t bytes = count * 4 * passes_.sumComponents();
    if (single_ && !spansOverlap(input, bytes, output, bytes)) {
        single_->record(cmd, input, output, count, 0, totals);
        return;
    }
    if (algorithm_ == ScanAlgorithm::SinglePass)
        fail("exclusive scan: the single pass cannot scan in place (its output overlaps its input); use "
             "ScanAlgorithm::Auto or ReduceThenScan");
    passes_.recordBlockOffsets(cmd, input, count, totals);
    passes_.recordDownsweep(cmd, input, output, count, 0);
}

} // namespace isoscope
