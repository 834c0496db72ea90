#pragma once
// Parallel Marching Blocks (Liu, Wang, Xu, Zhang: "Parallel Marching Blocks:
// A Practical Isosurfacing Algorithm for Large Data on Many-Core
// Architectures", 2016) as render-graph passes, `--method block`, each in
// its own file beside its shader:
//   min_max            value range of each block's cells          (section 4.1; only after the volume changed)
//   compact_blocks     list of blocks the surface crosses, and    (section 4.2)
//                      the indirect dispatches from its length
//   count_vertices     welded meshes: vertex ranges per block     (beyond the paper)
//   generate_triangles vertices and indexed triangles per block   (section 4.3: an invocation per cell,
//   generate_rows      or per x-row; both in one graph pass where the list's length picks one)
// The ranges and the state survive frames (imported); the list and its maps
// are the graph's transients.
// The ranges cover each block's voxels and the one-voxel overlap on its upper
// faces, so a block is listed exactly when its cells straddle the isovalue.
// Auxiliary memory: 4 bytes per block for the ranges (2 for 8-bit volumes), 1/4 byte per block for
// the block-to-list map (welded; a bitmask and a slot per 32 blocks), and 4
// (+8 welded, +12 for blocks whose edge-group sizes need over 32 bits) per
// list entry; the list is sized from an estimate and grows when the GPU
// reports it full. Plus the 2 KiB case table and a few small buffers.
#include <memory>

#include "extract/gpu_extractor.h"

namespace isoscope {

std::unique_ptr<GpuExtractor> createBlockExtractor(Context& context, const FieldSource& field,
                                                   const ExtractOptions& options);

} // namespace isoscope
