#pragma once
// The single-pass scan (shaders/compute/scan_single_pass.comp): decoupled
// look-back with decoupled fallback, so each element is read once and
// written once, a copy's traffic, where reduce-then-scan (scan_passes.h)
// reads the input twice. Safe without a forward-progress guarantee: a
// workgroup never waits on a tile that has published nothing for longer than
// a bounded number of polls; it reduces that tile's input itself.
// ExclusiveScan and StreamCompaction use it; use those, not this.
//
// Why it always finishes, whatever the scheduler does: a look-back step
// either adds at least one tile and moves past it, or finds the nearest
// tile silent; after SPIN_LIMIT such polls in a row the workgroup reduces
// that tile from its input (only tiles of the same dispatch can be silent:
// earlier segments' dispatches have finished) and moves past it. So a
// workgroup's look-back ends after at most (its tile index) x (SPIN_LIMIT +
// 1) steps without waiting on any other workgroup to run. Tickets only make
// the wait usually short.
//
// Tile states: where the device has shaderInt64 and shaderBufferInt64Atomics
// and the totals stay below 2^62 (a compaction, or at most 2^30 elements),
// one 64-bit word per tile and summed component
// (scan_single_pass_packed.comp): a look-back poll is one load a component.
// Elsewhere 24 bytes (aggregate and inclusive prefix, 64 bits each in three
// 32-bit words; scan_single_pass.comp). On the H100 the packed states took
// the two-word scan of 2^30 elements from 10.02 to 7.91 ms (1.37x a copy).
//
// Per record: one fill of the tile states (zero), then one dispatch per
// segment (inputs longer than one binding, as scan_passes.h). Scratch: the
// tile states, a few words of tickets.
// Not in place: the output must not overlap the input (the fallback re-reads
// other tiles' input while they write theirs).
#include <cstdint>
#include <string>

#include "compute/scan_passes.h"

namespace isoscope {

class SinglePassScan {
public:
    SinglePassScan(Context& context, uint32_t components, bool select, uint64_t maxCount, const ScanOptions& options,
                   const std::string& what);

    // Prefixes (or, with select, indices into `output`, which then holds
    // `outputWords` words) and the 64-bit totals at `totals` (or in scratch).
    void record(VkCommandBuffer cmd, BufferSpan input, BufferSpan output, uint64_t count, uint64_t outputWords,
                BufferSpan totals) const;

    // A uint32 at this place counts the tiles the last record() reduced on
    // another's behalf (the fallback), for benchmarks.
    BufferSpan fallbackCounter() const { return {state_.buffer, 0}; }
    uint64_t scratchBytes() const { return state_.allocated + totals_.allocated; }
    static uint64_t scratchBytesFor(const Context& context, uint32_t components, bool select, uint64_t maxCount);
    // `options` with the single pass's own defaults filled in: workgroups of
    // 512 where the device allows (H100: 4 GiB of one-word elements 4.06 ->
    // 3.77 ms; the reduce-then-scan passes keep 256), 256 for two summed
    // components with packed states.
    static ScanOptions withDefaults(ScanOptions options, uint32_t sumComponents, bool packed);
    // Whether a scan made with these arguments keeps 64-bit tile states.
    static bool usesPackedStates(const Context& context, bool select, uint64_t maxCount, const ScanOptions& options);
    const ScanLayout& layout() const { return layout_; }
    bool packedStates() const { return packed_; }

private:
    uint64_t stateBytes(uint64_t tiles) const;

    Context& context_;
    uint32_t components_;
    bool select_;
    uint64_t maxCount_;
    std::string what_;
    bool packed_; // 64-bit tile states (scan_single_pass_packed.comp)
    ScanLayout layout_;
    ComputeProgram program_;
    Buffer state_;  // control words (fallback count, one ticket per segment), then the tile states
    Buffer totals_; // when the caller gives none
};

} // namespace isoscope
