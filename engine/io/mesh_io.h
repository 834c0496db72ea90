#pragma once
// Reading and writing meshes: PLY and Wavefront OBJ; writing binary STL, VTK
// XML PolyData (.vtp) and glTF 2.0 (.gltf + .bin, .glb).
//
// Writers store positions and normals as they are in the Mesh (world or index
// space is chosen before, see mesh/world_transform.h).
//
// Every function throws Error naming the file and the problem (cannot open,
// unknown extension, bad header, truncated data, index out of range). The
// writers leave no partial file (io/output_file.h).
//
// Each writer replaces an existing file or refuses to as options.ifExists
// says, and reports to options.progress (core/progress.h) the bytes written,
// OBJ the lines written (its size is known only once written), and the end
// once the file is in place.
#include <filesystem>
#include <vector>

#include "io/output_file.h"
#include "mesh/mesh.h"

namespace isoscope {

// Binary little-endian PLY: vertex `float x y z` (+ `float nx ny nz` when the
// mesh has normals), face `property list uchar uint vertex_indices` with
// faceSize (3 or 4) indices each. What VTK, MeshLab and Blender read.
void writePly(const Mesh& mesh, const std::filesystem::path& path, const WriteOptions& options = {});

// OBJ: `v x y z`, `vn x y z` (when the mesh has normals), faces with 1-based
// indices, `f a//a b//b c//c` (or `f a b c` without normals). Floats are
// written with 9 significant digits, so they read back bit-exact.
void writeObj(const Mesh& mesh, const std::filesystem::path& path, const WriteOptions& options = {});

// Binary STL: an 80-byte header, then per triangle its facet normal (from
// the winding), three corners and a zero attribute count. Quads are split
// into two triangles; per-vertex normals are not stored (the format has none).
void writeStl(const Mesh& mesh, const std::filesystem::path& path, const WriteOptions& options = {});

// VTK XML PolyData, as ParaView opens it: Float32 Points, Float32 point-data
// Normals (when the mesh has them), Polys connectivity and offsets (Int32, or
// Int64 past 2^31 indices), raw little-endian in one appended block.
void writeVtp(const Mesh& mesh, const std::filesystem::path& path, const WriteOptions& options = {});

// glTF 2.0, one mesh with one triangle primitive: POSITION (with min/max),
// NORMAL when the mesh has normals (a normal that is not unit length, which
// the spec forbids, is replaced by its triangles' area-weighted normal), and
// UNSIGNED_INT indices; quads are split. writeGltf writes the JSON at path
// and the buffer beside it as <stem>.bin; writeGlb writes one binary file. A
// mesh with no faces gives an empty scene (and no .bin). With
// IfExists::Refuse neither the .gltf nor the .bin may exist; both are checked
// before anything is written.
void writeGltf(const Mesh& mesh, const std::filesystem::path& path, const WriteOptions& options = {});
void writeGlb(const Mesh& mesh, const std::filesystem::path& path, const WriteOptions& options = {});

// The .bin that writeGltf(path) writes beside path: path with extension .bin.
std::filesystem::path gltfBufferFile(const std::filesystem::path& path);

// The files writeMesh(path) may write: path, and for a .gltf its .bin. For
// checking every output before long work (checkOutputPath).
std::vector<std::filesystem::path> meshOutputFiles(const std::filesystem::path& path);

// The writer for the extension (.ply, .obj, .stl, .vtp, .gltf, .glb, any case).
void writeMesh(const Mesh& mesh, const std::filesystem::path& path, const WriteOptions& options = {});

// Reads PLY (ascii or binary_little_endian, any scalar types, other elements
// and properties skipped) or OBJ (v, vn, f with a, a/b, a//c, a/b/c and
// negative indices; other statements ignored), by the extension. Faces of one
// size give faceSize 3 or 4; other polygons, or mixed sizes, are fanned into
// triangles. Normals are kept when the file gives one per vertex (PLY nx ny nz;
// OBJ only when every face corner uses the vn of the same number as its v).
// Reports the bytes read to progress (core/progress.h).
Mesh readMesh(const std::filesystem::path& path, const Progress& progress = {});

} // namespace isoscope
