#pragma once
// `--method histopyramid`: HistoPyramid Marching Cubes (Dyken, Ziegler,
// Theobalt, Seidel 2008) on Vulkan compute. The pyramid counts, per node of
// an octree of grid points, the vertices and triangles below it; each output
// element then finds its point by one traversal from the top, with no list
// and no scan (shaders/extract/histopyramid/histopyramid_common.glsl):
//   base      (base.comp)      classify points, write levels 0, 1 and 2; below 2^23 points
//             (base_runs.comp) levels 0 and 1 (histoPyramidBaseInColumns)
//   reduce    (reduce.comp)    one pass per level above: sums of eight children; after
//             (reduce_words.comp) base_runs.comp, read a word a child
//   prepare   (prepare.comp)   the top's sums into the mesh counts and two indirect dispatches
//   vertices  (vertices.comp)  welded: one invocation per vertex, on its point's crossed edge
//   triangles (triangles.comp) one invocation per triangle; welded, its corners are
//                              the owners' ranks in the pyramid
// ExtractOptions::weld: one vertex per intersected grid edge (the CPU
// reference's mesh, as the paper's vertex pyramid does not give) or a
// triangle soup, as the paper. Auxiliary memory: about 1.34 bytes per
// point (a byte per point at level 0, the levels above an eighth each), so
// 1.34 GiB at 1024³: the price of a traversal that needs no list. The
// volume and the pyramid must each fit one storage binding.
#include <memory>

#include "extract/gpu_extractor.h"

namespace isoscope {

std::unique_ptr<GpuExtractor> createHistoPyramidExtractor(Context& context, const FieldSource& field,
                                                          const ExtractOptions& options);

} // namespace isoscope
