#pragma once
// `--method scan`: the classic prefix-sum Marching Cubes pipeline (the CUDA
// SDK marchingCubes sample, the baseline of the Parallel Marching Blocks and
// HistoPyramid papers), per z-slab:
//   classify  (classify.comp)          vertices and triangles per point
//   compact   (compute/compact.h)      the points that emit anything
//   scan      (compute/scan.h)         both counts at once, in place: offsets
//   prepare   (prepare_generate.comp)  indirect dispatch, the slab's mesh base
//   generate  (generate.comp)          vertices and triangles at their offsets
// ExtractOptions::weld: one vertex per intersected grid edge (the default,
// the CPU reference's output) or a triangle soup, as the original.
// Auxiliary memory: ~12 bytes per point of a slab plus block sums; slabs are
// as thick as ExtractOptions::budgetBytes allows (0: half of what the device
// has free, the other half left for the mesh).
#include <memory>

#include "extract/gpu_extractor.h"

namespace isoscope {

std::unique_ptr<GpuExtractor> createScanExtractor(Context& context, const FieldSource& field,
                                                  const ExtractOptions& options);

} // namespace isoscope
