#pragma once
// How the scan method splits a volume into z-slabs so that its auxiliary
// buffers fit a device-memory budget (the CUDA sample allocates ~20 bytes per
// voxel up front and fails when they do not fit; this method slabs instead).
//
// A slab of L cell layers works on nx * ny * (L + 1) points (the top plane is
// shared with the next slab); per point it needs 8 bytes of counts/offsets
// and 4 of compacted point list, plus the scan's and compaction's block sums.
#include <array>
#include <cstdint>

namespace isoscope {

class Context;

struct SlabPlan {
    uint32_t cellLayersPerSlab = 0; // 0: the volume has no cells
    uint32_t slabCount = 0;
    uint64_t maxSlabPoints = 0;     // points of the largest slab
    uint64_t plannedBytes = 0;      // auxiliary bytes the plan expects (before allocation rounding)
};

// Auxiliary bytes for slabs of `cellLayers` layers (seams included when the
// volume takes more than one slab and the mesh is welded).
uint64_t scanSlabBytes(const Context& context, std::array<uint32_t, 3> dims, uint32_t cellLayers, bool multipleSlabs,
                       bool weld);

// The fewest slabs that fit `budgetBytes` and one storage binding (the
// counts, 8 bytes a point, are bound whole: on NVIDIA's 4 GiB binding that is
// about 512 planes of 1024x1024, whatever the budget), all about equally thick.
// Throws Error, with the numbers, when even a one-layer slab does not fit.
SlabPlan planSlabs(const Context& context, std::array<uint32_t, 3> dims, uint64_t budgetBytes, bool weld);

} // namespace isoscope
