#pragma once
// Fewer triangles and smoother surfaces for export, on the CPU after read-back.
//
//     Mesh mesh = report.mesh;
//     MeshReduction reduction = simplifyMesh(mesh, 0.25); // a quarter of the triangles
//     smoothMesh(mesh, 10);                                 // Taubin, no shrinking
//
// Both weld vertices at equal positions first (GPU extractors emit a vertex
// per triangle corner), and leave a triangle mesh (quads are split).
#include <cstdint>

#include "mesh/mesh.h"

namespace isoscope {

struct MeshReduction {
    uint64_t trianglesBefore = 0, trianglesAfter = 0;
    uint64_t verticesBefore = 0, verticesAfter = 0;
    double relativeError = 0.0; // meshoptimizer's deviation, relative to the mesh's extent
};

// Edge-collapse simplification (meshoptimizer's meshopt_simplify) towards
// ratio × the triangle count, 0 < ratio <= 1. Border vertices are locked
// (meshopt_SimplifyLockBorder), so open edges stay where they are and a
// closed surface stays closed; the collapses keep the topology, so it may
// stop above the target where collapsing further would change it, or where
// the deviation would pass 1% of the mesh's extent. Where collapses fold a
// thin part into two opposite triangles on the same vertices, the pair is
// removed. Normals are kept for the vertices that remain. Fails for a ratio
// outside (0, 1].
MeshReduction simplifyMesh(Mesh& mesh, double ratio);

// Taubin's λ|μ smoothing (G. Taubin, "A signal processing approach to fair
// surface design", SIGGRAPH 1995, section 4: λ = 0.5, μ = -0.53, a shrinking
// then an inflating Laplacian step per iteration) with uniform weights over
// the edges of the welded mesh; border vertices stay fixed. Normals, when the
// mesh has them, are recomputed from the faces (area-weighted).
void smoothMesh(Mesh& mesh, uint32_t iterations);

} // namespace isoscope
