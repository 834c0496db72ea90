#pragma once
// The CPU reference Marching Cubes extractor: the output every GPU method is
// checked against. Simple and exact rather than fast (single-threaded).
#include "mesh/mesh.h"
#include "volume/volume.h"

namespace isoscope {

// Extracts the isosurface f = iso as an indexed triangle mesh, with the case
// table of extract/case_table.h.
//
// Vertices: one per intersected grid edge, shared by every cell around that
// edge (welded by grid-edge identity, so the mesh is closed wherever the
// surface does not reach the volume's border). A vertex lies at
// t = (iso - a) / (b - a) from the edge's lower sample a toward b, in world
// units (origin + index * spacing). Vertex order is deterministic: for each
// z plane k in turn, the x-edges then the y-edges of plane k (x fastest), then
// the z-edges between planes k and k+1. Triangles follow cell order (x fastest).
//
// Normals: the gradient by central differences at the samples (one-sided at
// the border, in world units), interpolated with the same t, normalized and
// negated, so they point toward decreasing values; triangles are
// counter-clockwise around them. Where the gradient vanishes or is not finite,
// the normal is the edge's direction from its inside end to its outside end.
//
// Inside means finite and >= iso. Non-finite samples (NaN, ±Inf) are outside;
// an edge with a non-finite end gets its vertex at the midpoint; a non-finite
// neighbour in a central difference is replaced by the centre sample.
//
// Samples equal to iso (common in integer data): such a sample is inside and
// every crossed edge keeps its own vertex, as vtkFlyingEdges3D does. The edges
// from an inside sample equal to iso toward its outside neighbours all put
// their vertex on that sample, so several vertices share one position and
// some triangles have zero area; the mesh stays a combinatorial 2-manifold
// (vtkMarchingCubes instead merges such vertices and drops degenerate
// triangles, so it reports fewer triangles there).
//
// Returns an empty mesh when iso is outside the data's range or an axis has
// fewer than 2 samples. Throws Error when the mesh would need more than
// 2^32 - 1 vertices. Memory besides the mesh: a few planes of nx * ny values.
Mesh extractMarchingCubes(const Volume& volume, float iso);

} // namespace isoscope
