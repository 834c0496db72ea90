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
// 32-bit words; scan_single_pass.comp). Packed states make a look-back poll
// one load, the reason two-word scans come near a copy (docs/BENCHMARKS.md).
//
// Per run: one fill of the tile states (zero), then one pass per segment
// (inputs longer than one binding, as scan_passes.h). Scratch (the caller's,
// a graph transient): the tile states, a few words of tickets, the totals.
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

    // Bytes of the caller's scratch buffer: control words (the fallback
    // count, one ticket per segment), the tile states, 16 bytes of totals.
    uint64_t scratchBytes() const;
    // Prefixes (or, with select, indices into `output`, which then holds
    // `outputWords` words) and the 64-bit totals at `totals` (or in
    // scratch): a transfer pass that zeroes the states, then one pass per
    // segment (each looks back over the states the earlier ones published).
    void addPasses(RenderGraph& graph, const std::string& name, ResourceId scratch, GraphSpan input, GraphSpan output,
                   uint64_t count, uint64_t outputWords, GraphSpan totals) const;
    // Where, in the scratch, a uint32 counts the tiles the last run reduced
    // on another's behalf (the fallback), for benchmarks.
    static constexpr uint64_t kFallbackCountOffset = 0;
    static uint64_t scratchBytesFor(const Context& context, uint32_t components, bool select, uint64_t maxCount);
    // `options` with the single pass's own defaults filled in: workgroups of
    // 512 where the device allows (fewer tiles to look back over), 256 for
    // two summed components with packed states (docs/BENCHMARKS.md).
    static ScanOptions withDefaults(ScanOptions options, uint32_t sumComponents, bool packed);
    // Whether a scan made with these arguments keeps 64-bit tile states.
    static bool usesPackedStates(const Context& context, bool select, uint64_t maxCount, const ScanOptions& options);
    const ScanLayout& layout() const { return layout_; }
    bool packedStates() const { return packed_; }

private:
    uint64_t stateBytes(uint64_t tiles) const;

    uint32_t components_;
    bool select_;
    uint64_t maxCount_;
    std::string what_;
    bool packed_; // 64-bit tile states (scan_single_pass_packed.comp)
    ScanLayout layout_;
    ComputeProgram program_;
    uint64_t controlBytes_ = 0;
    uint64_t maxStateBytes_ = 0;
};

} // namespace isoscope
