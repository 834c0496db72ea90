#pragma once
// Parallel Marching Blocks (Liu, Wang, Xu, Zhang: "Parallel Marching Blocks:
// A Practical Isosurfacing Algorithm for Large Data on Many-Core
// Architectures", 2016) as Vulkan compute passes, `--method block`:
//   min_max            value range of each voxel block            (section 4.1)
//   compact_blocks     list of blocks the surface may cross       (section 4.2)
//   count_vertices     welded meshes: vertex ranges per block     (beyond the paper)
//   generate_triangles vertices and indexed triangles per block   (section 4.3)
// Auxiliary memory: 4 bytes per block for the ranges, 4 per block for the
// block-to-list map (welded), and 4 (+16 welded) per list entry; the list is
// sized from an estimate and grows when the GPU reports it full.
#include <memory>

#include "extract/gpu_extractor.h"

namespace isoscope {

std::unique_ptr<GpuExtractor> createBlockExtractor(Context& context, const FieldSource& field,
                                                   const ExtractOptions& options);

} // namespace isoscope
