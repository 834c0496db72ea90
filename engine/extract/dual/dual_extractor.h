#pragma once
// `--method dual`: Dual Marching Cubes (Grosso & Zint, "A parallel dual
// marching cubes approach to quad only surface reconstruction", 2021) on
// Vulkan compute, writing a quad mesh (faceSize 4): one vertex per MC polygon
// of a cell, on the cell's trilinear isosurface, and one quad per intersected
// interior grid edge, joining the vertices of its four cells:
//   clear_table (clear_table.cpp) empty the edge hash table, zero the counters
//   cells       (cells.comp)      per cell: MC polygons, vertices, table stores
//   quads       (quads.comp)      per bucket: complete quads into the index buffer
// The hash table (open addressing, keyed by grid edge) holds twice the edges
// expected; a store that finds no bucket raises the mesh's overflow flag and
// the table grows to twice the edges counted, and the extraction is redone:
// never a silent loss. Grids of more than 2^32 / 3 points are refused (the
// edge key is 32-bit).
#include <memory>

#include "extract/gpu_extractor.h"

namespace isoscope {

std::unique_ptr<GpuExtractor> createDualExtractor(Context& context, const FieldSource& field,
                                                  const ExtractOptions& options);

} // namespace isoscope
