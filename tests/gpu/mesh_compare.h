#pragma once
// Comparing a GPU extractor's mesh with the CPU reference's, as the issues
// define "the same surface": the same faces, the same vertex positions (within
// a tolerance in units of the voxel spacing), and for welded meshes the same
// topology numbers.
#include <cstdint>
#include <string>

#include "mesh/mesh.h"
#include "mesh/mesh_check.h"
#include "volume/volume.h"

namespace isoscope::test {

struct MeshComparison {
    uint64_t candidateFaces = 0, referenceFaces = 0;
    uint64_t candidateVertices = 0, referenceVertices = 0;
    // Vertices of one mesh with no vertex of the other within the tolerance.
    uint64_t unmatchedCandidateVertices = 0, unmatchedReferenceVertices = 0;
    // Faces of the candidate with no reference face whose vertices match its
    // own, one for one in the same cyclic order (so winding counts).
    uint64_t facesNotInReference = 0;
    double maxPositionError = 0.0; // in voxel spacings, over matched vertices
    // Matched vertices where both meshes have normals, and those of them
    // whose normals are more than 25 degrees apart.
    uint64_t normalsCompared = 0, normalsApart = 0;
    MeshReport candidate, reference;
    std::string summary() const;
};

// Two positions match when they differ on each axis by at most `tolerance`
// voxel spacings, or where that is more, 4 float32 ulps of the world
// coordinate or 2 of the grid index (the GPU methods compute x + t in float32
// at the index's scale, whose resolution past index 128 is coarser than 1e-5
// spacings, whatever the world coordinate).
MeshComparison compareMeshes(const Mesh& candidate, const Mesh& reference, const Volume& volume,
                             double tolerance = 1e-5);

} // namespace isoscope::test
