#pragma once
// Where a mesh extracted from a volume lies: in the volume's world (its file's
// index-to-world map, rotation and flips included), or in index space.
//
// Extraction works in the axis-aligned frame of Volume::spacing and origin,
// so its positions are origin + (i, j, k) * spacing for fractional grid
// indices (i, j, k). Writers store what they are given; these functions move
// a mesh into the frame a user asked for before it is written.
//
//     ExtractionReport report = extractIsosurface(volume, iso, options);
//     placeInWorld(report.mesh, volume); // where the scanner put it
//     writeMesh(report.mesh, "surface.glb");
#include "mesh/mesh.h"
#include "volume/volume.h"

namespace isoscope {

// Maps positions through volume.indexToWorld (nothing to do when it is unset:
// the extraction frame is then the world). Normals go through the inverse
// transpose and are renormalized; a map with negative determinant (a flip)
// reverses each face's winding, so faces keep facing the way their normals
// point.
void placeInWorld(Mesh& mesh, const Volume& volume);

// Whether placeInWorld reverses each face's winding (a flip), for writers
// that place a mesh part by part (io/mesh_stream.h).
bool placeInWorldFlipsFaces(const Volume& volume);

// Positions as grid indices (i, j, k): (p - origin) / spacing; normals follow.
void toIndexSpace(Mesh& mesh, const Volume& volume);

} // namespace isoscope
