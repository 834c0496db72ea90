#include "compute/compact.h"

#include "core/context.h"
#include "core/error.h"

namespace isoscope {

StreamCompaction::StreamCompaction(Context& context, uint32_t components, uint64_t maxCount, const ScanOptions& options)
    : passes_(context, components, true, true, maxCount, options, "stream compaction")
{
    if (maxCount > (uint64_t(1) << 32))
        fail("stream compaction of " + std::to_string(maxCount) +
             " elements: its indices are 32-bit, so at most 2^32 elements; compact in parts");
    if (maxCount * 4 > context.info().maxStorageBufferRange)
        fail("stream compaction of " + std::to_string(maxCount) + " elements may select " +
             formatBytes(maxCount * 4) + " of indices; " + context.info().name + " binds at most " +
             formatBytes(context.info().maxStorageBufferRange) + ": compact in parts");
}

void StreamCompaction::record(VkCommandBuffer cmd, BufferSpan input, uint64_t count, BufferSpan indices,
                              BufferSpan selectedCount) const
{
    if (!selectedCount.buffer)
        fail("stream compaction needs a buffer for the selected count (engine bug)");
    passes_.recordBlockOffsets(cmd, input, count, selectedCount);
    passes_.recordDownsweep(cmd, input, indices, count, count);
}

} // namespace isoscope
