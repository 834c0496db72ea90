#pragma once
// `--method scan`: the classic prefix-sum Marching Cubes pipeline (the CUDA
// SDK marchingCubes sample, the baseline of the Parallel Marching Blocks and
// HistoPyramid papers) with the classification fused into the passes of a
// reduce-then-scan (compute/scan_passes.h), so nothing is stored per point.
// Per z-slab:
//   count     (count.comp)             classify columns of tiles of points, write three block
//                                      sums a tile and a bit per span with occupied points
//   scan      (compute/block_sum_scan.h) the block sums into block offsets and slab totals
//   list      (list.comp)              classify the marked spans again, scan in the tile, write
//                                      the occupied points with their vertex/triangle offsets,
//                                      and row starts
//   prepare   (prepare_generate.comp)  indirect dispatch, the slab's mesh base, list overflow
//   generate  (generate.comp)          vertices and triangles at their offsets
// ExtractOptions::weld: one vertex per intersected grid edge (the default,
// the CPU reference's output) or a triangle soup, as the original.
// Auxiliary memory (slab_plan.h): 16 bytes per occupied point (a list sized
// by a guess and grown on overflow), 4 per row of points, 24 per 4096 points
// of block sums and 32 of span bits. Slabs only where that does not fit ExtractOptions::budgetBytes
// (0: half of what the device has free) or one storage binding; a slab binds
// only its planes of the volume, so the volume may be larger than one binding.
// Streamed extraction (ExtractOptions::streamedSlabs, extract/stream/): the
// grid is a streamed slab's, its slabs own their bottom plane's edges (the
// streamed slabs are welded by edge code, which generate writes), and the
// passes work in the whole volume's z (GpuExtractor::placeSlab).
#include <memory>

#include "extract/gpu_extractor.h"

namespace isoscope {

std::unique_ptr<GpuExtractor> createScanExtractor(Context& context, const FieldSource& field,
                                                  const ExtractOptions& options);

} // namespace isoscope
