#pragma once
// The slabs of a streamed extraction (extract/stream/streamed_extraction.h):
// how many cell layers a slab takes under a device budget, and each slab's
// window of grid and image planes.
#include <cstdint>

#include "extract/stream/slab_method.h"
#include "volume/volume.h"

namespace isoscope {

class Context;

// A slab: cell layers [z0, z1) of the volume, its grid planes [z0, z1], and
// the image planes [z0 - below, z1 + above] around them.
struct SlabWindow {
    uint32_t z0 = 0, z1 = 0;
    uint32_t below = 0, above = 0;
    uint32_t firstImagePlane() const { return z0 - below; }
    uint32_t imagePlanes() const { return z1 - z0 + 1 + below + above; }
    uint32_t gridPlanes() const { return z1 - z0 + 1; }
};

// The planes a slab after the first shares with the slab before: its first
// image plane (the one below its first grid plane), that grid plane and the
// one above it, all three in the previous slab's image.
constexpr uint32_t kOverlapPlanes = 3;

// The slab of up to `layers` cell layers from z0 of a volume of `nz` planes.
SlabWindow slabWindow(uint32_t nz, uint32_t z0, uint32_t layers);

// The window's first image planes the slab before has (copied on the
// device, slab_overlap_copy.h, rather than read and uploaded again): none
// for the first slab; for a last slab of one cell layer, all but its last
// plane, which the host reads to fill the planes past the volume's end.
uint32_t sharedPlanes(const SlabWindow& w);

// Cell layers [z0, z1) of window `w`, extracted from w's image: the
// image planes below the part's first grid plane are its `below`.
SlabWindow subWindow(const SlabWindow& w, uint32_t z0, uint32_t z1);

// The device bytes a streamed slab of `cellLayers` layers holds before its
// mesh: the ring's two slab volumes (with the planes around the slab), two
// slabs' staging where it is the device's memory (lavapipe; on a discrete
// GPU it is pinned host memory: one slab's, counted twice, as when each
// ring slot had its own), and two extractors' work (SlabMethod::workBytes).
uint64_t streamSlabBytes(const SlabMethod& method, const Volume& grid, uint32_t cellLayers);

// The budget's cell layers per slab: the most whose slab bytes take at most
// half the budget (the rest for the slab's mesh and the graph's transients)
// and, where `capImage`, whose image holds at most 512 MiB (smaller slabs
// pipeline better, and less staging is pinned before the first upload).
// Throws Error, with the numbers, when even one layer does not fit.
uint32_t planSlabLayers(const SlabMethod& method, const Volume& grid, uint64_t budget, bool capImage = true);

// Whether extracting `volume` whole would need more device memory than
// `budget` holds: the image plus the block method's auxiliary memory and a
// first mesh.
bool needsStreaming(const Context& context, const Volume& grid, uint64_t budget);

} // namespace isoscope
