#pragma once
// How the scan method tiles its points and splits a volume into z-slabs so
// that its auxiliary buffers fit a device-memory budget (the CUDA sample
// allocates ~20 bytes per voxel up front and fails when they do not fit; this
// method stores nothing per point and slabs only when what it does store
// still does not fit).
//
// A slab of L cell layers works on nx * ny * (L + 1) points (the top plane is
// shared with the next slab), classified sixteen at a time along x (spans,
// classify_spans.glsl) in tiles of ScanTiling::tileSpans. It needs three
// 64-bit block sums a tile (and their levels), its span bits, 4 bytes a row of points, and
// 16 bytes a list entry (an occupied point), for as many entries as
// scanListCapacity estimates; a list that turns out too short is grown (the
// driver's overflow redo), to at most a slab's points.
//
// Each slab binds only its own planes of the volume (and one more on either
// side, for the gradients), so a volume larger than one storage binding
// (float32 1024³ is 4 GiB) is extracted in slabs whose planes fit one.
#include <array>
#include <cstdint>

namespace isoscope {

class Context;

struct ScanTiling {
    uint32_t workgroupSize = 0; // count and list passes: a multiple of the subgroup size
    uint32_t items = 0;         // spans per invocation
    uint32_t tileSpans = 0;     // workgroupSize * items, at most 256 (4096 points: classify_spans.glsl's packed sums)
    uint32_t span = 0;          // block sums per workgroup of the block-sum scan
    // Words of a tile's span bits (a bit per span with occupied points, from
    // the count pass to the list pass): at most 8.
    uint32_t tileBitWords() const { return (tileSpans + 31) / 32; }
};

constexpr uint32_t kScanSpanPoints = 16; // points a span (classify_spans.glsl)

ScanTiling scanTiling(const Context& context);

// Tiles of spans of a plane of points: each plane is cut into tiles of its
// own (the last one shorter), so that a tile lies over the one a plane down.
uint64_t scanPlaneTiles(const ScanTiling& tiling, std::array<uint32_t, 3> dims);

// Invocations of a workgroup of the list pass over slabs of `slabTiles`
// tiles: from kScanNarrowListFromTiles tiles up, 64 (at least a subgroup)
// where that divides a tile, so that more tiles are in flight to wait on
// their loads; below, the count pass's workgroup, so that a tile's marked
// spans take one round instead of up to four (measured on the H100 between
// the engine CT's 2048 tiles and 256³'s 4112: docs/BENCHMARKS.md). `requested`
// (non-zero: ExtractOptions::scanListWorkgroup) replaces the rule; it must
// be a multiple of the subgroup size that divides a tile, at most the count
// pass's workgroup.
constexpr uint64_t kScanNarrowListFromTiles = 4096;
uint32_t scanListWorkgroup(const ScanTiling& tiling, uint32_t subgroupSize, uint64_t slabTiles,
                           uint32_t requested = 0);

// Tiles of spans of a slab of `planes` planes of points.
uint64_t scanSlabTiles(const ScanTiling& tiling, std::array<uint32_t, 3> dims, uint64_t planes);

// Tiles one above the other that a workgroup of the count pass walks over a
// slab of `planes` planes (count.comp): 16, halved while that leaves fewer
// than 4096 workgroups, down to 1 (small volumes need the workgroups more
// than the reuse of lines). `requested` (non-zero:
// ExtractOptions::scanColumnTiles, 1 to 16) replaces the rule.
uint32_t scanColumnTiles(const ScanTiling& tiling, std::array<uint32_t, 3> dims, uint64_t planes,
                         uint32_t requested = 0);

// Workgroups of the count pass over a slab of `planes` planes: a column of
// `columnTiles` tiles each.
uint64_t scanCountGroups(const ScanTiling& tiling, std::array<uint32_t, 3> dims, uint64_t planes,
                         uint32_t columnTiles);

// What bounds a slab besides the memory budget.
struct SlabBindings {
    // The volume's bytes per sample; without it, the largest type's (a plan
    // that errs toward thinner slabs, never toward a range past the binding).
    uint32_t sampleBytes = 4;
    uint64_t maxBindingBytes = 0; // bytes one storage binding may cover; 0: the device's maxStorageBufferRange
};

struct SlabPlan {
    uint32_t cellLayersPerSlab = 0; // 0: the volume has no cells
    uint32_t slabCount = 0;
    uint64_t maxSlabPoints = 0;     // points of the largest slab
    uint64_t maxSlabRows = 0;       // rows of points (ny * planes) of the largest slab
    uint64_t maxSlabTiles = 0;      // tiles of spans of the largest slab
    uint64_t listCapacity = 0;      // occupied-point entries the list starts with
    uint64_t plannedBytes = 0;      // auxiliary bytes the plan expects (before allocation rounding)
};

// A first guess at a slab's occupied points: a surface crossing each point
// plane and each side of the slab a couple of times, at most the slab's points.
uint64_t scanListCapacity(std::array<uint32_t, 3> dims, uint32_t cellLayers);

// Auxiliary bytes for slabs of `cellLayers` layers with a list of
// `listCapacity` entries (0: scanListCapacity's guess); seams included when
// the volume takes more than one slab and the mesh is welded.
uint64_t scanSlabBytes(const Context& context, std::array<uint32_t, 3> dims, uint32_t cellLayers, bool multipleSlabs,
                       bool weld, uint64_t listCapacity = 0);

// The fewest slabs that fit `budgetBytes` and one storage binding per buffer
// (a slab's points are 32-bit indices, its list and its planes of the volume
// are bound whole), all about equally thick, with lists of `minListEntries` or
// scanListCapacity's guess, whichever is larger (capped at a slab's points).
// Throws Error, with the numbers, when even a one-layer slab does not fit.
SlabPlan planSlabs(const Context& context, std::array<uint32_t, 3> dims, uint64_t budgetBytes, bool weld,
                   uint64_t minListEntries = 0, SlabBindings bindings = {});

// The bytes of the volume's storage buffer that a slab binds: point planes
// [firstPlane, endPlane) (the slab's, and one more on either side where the
// volume has it), from an offset that meets the device's alignment.
struct SlabVolumeRange {
    uint64_t offset = 0;      // bytes: a multiple of the binding alignment and of 16
    uint64_t bytes = 0;       // whole 32-bit words, within the buffer
    uint32_t firstPlane = 0;  // the plane z at which the shaders' sample indices restart
    uint32_t firstSample = 0; // samples from `offset` to plane firstPlane's first
};

SlabVolumeRange slabVolumeRange(const Context& context, std::array<uint32_t, 3> dims, uint32_t sampleBytes,
                                uint32_t z0, uint32_t planes);

} // namespace isoscope
