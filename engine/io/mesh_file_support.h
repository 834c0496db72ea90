#pragma once
// Internal to engine/io: what the mesh readers and writers share.
#include <filesystem>
#include <string>

#include "mesh/mesh.h"

namespace isoscope {

// ".ply" for "Mesh.PLY": the extension, lowercase, for choosing a format.
std::string lowerExtension(const std::filesystem::path& path);

// Fails, naming path, unless mesh can be written: faceSize 3 or 4, and
// normals either absent or one per vertex.
void checkMeshForWriting(const Mesh& mesh, const std::filesystem::path& path);

} // namespace isoscope
