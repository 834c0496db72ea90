#pragma once
// Reading and writing meshes: PLY and Wavefront OBJ.
//
// Every function throws Error naming the file and the problem (cannot open,
// unknown extension, bad header, truncated data, index out of range). The
// writers leave no partial file (io/output_file.h).
#include <filesystem>

#include "io/output_file.h"
#include "mesh/mesh.h"

namespace isoscope {

// Binary little-endian PLY: vertex `float x y z` (+ `float nx ny nz` when the
// mesh has normals), face `property list uchar uint vertex_indices` with
// faceSize (3 or 4) indices each. What VTK, MeshLab and Blender read.
void writePly(const Mesh& mesh, const std::filesystem::path& path, IfExists ifExists = IfExists::Replace);

// OBJ: `v x y z`, `vn x y z` (when the mesh has normals), faces with 1-based
// indices, `f a//a b//b c//c` (or `f a b c` without normals). Floats are
// written with 9 significant digits, so they read back bit-exact.
void writeObj(const Mesh& mesh, const std::filesystem::path& path, IfExists ifExists = IfExists::Replace);

// writePly or writeObj by the extension (.ply, .obj, any case).
void writeMesh(const Mesh& mesh, const std::filesystem::path& path, IfExists ifExists = IfExists::Replace);

// Reads PLY (ascii or binary_little_endian, any scalar types, other elements
// and properties skipped) or OBJ (v, vn, f with a, a/b, a//c, a/b/c and
// negative indices; other statements ignored), by the extension. Faces of one
// size give faceSize 3 or 4; other polygons, or mixed sizes, are fanned into
// triangles. Normals are kept when the file gives one per vertex (PLY nx ny nz;
// OBJ only when every face corner uses the vn of the same number as its v).
Mesh readMesh(const std::filesystem::path& path);

} // namespace isoscope
