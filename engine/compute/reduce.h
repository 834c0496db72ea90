#pragma once
// Device-wide sum of uint32 or uvec2 elements into 64-bit totals, recorded
// into the caller's command buffer (passes 1 and 2 of scan_passes.h).
//
//   Reduction sum(context, 1, count);
//   sum.record(cmd, {values.buffer}, count, {total.buffer});  // one uint64 per component
//
// Totals are exact up to 2^64 (components × uint64, low word first). Any
// count from 0 to maxCount. Barriers: as ExclusiveScan.
// Cost: reads the input once; two passes up to 33.5M elements, four beyond.
#include "compute/scan_passes.h"

namespace isoscope {

class Reduction {
public:
    Reduction(Context& context, uint32_t components, uint64_t maxCount, const ScanOptions& options = {});

    void record(VkCommandBuffer cmd, BufferSpan input, uint64_t count, BufferSpan totals) const;

    uint64_t scratchBytes() const { return passes_.scratchBytes(); }

private:
    ScanPasses passes_;
};

} // namespace isoscope
