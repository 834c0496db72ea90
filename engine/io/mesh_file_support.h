#pragma once
// Internal to engine/io: what the mesh readers and writers share.
#include <filesystem>
#include <cstdint>
#include <string>
#include <string_view>

#include "mesh/mesh.h"

namespace isoscope {

// Larger mesh files are refused before anything is read: 16 GiB holds the
// 2^32 - 1 vertices a uint32 index can name, as binary PLY, with room to spare.
constexpr uint64_t kMaxMeshFileBytes = uint64_t(1) << 34;

// The whole of a regular file, checked first: a folder, a device (/dev/zero
// would never end), a pipe (it would block) or a file above maxBytes fails,
// naming the file, before any allocation. Opened without blocking.
std::string readRegularFile(const std::filesystem::path& path, uint64_t maxBytes = kMaxMeshFileBytes);

// Text safe to quote in a one-line message: at most 60 characters, control
// and non-ASCII bytes shown as '?', "..." when cut.
std::string printableExcerpt(std::string_view text);

// ".ply" for "Mesh.PLY": the extension, lowercase, for choosing a format.
std::string lowerExtension(const std::filesystem::path& path);

// Fails, naming path, unless mesh can be written: faceSize 3 or 4, and
// normals either absent or one per vertex.
void checkMeshForWriting(const Mesh& mesh, const std::filesystem::path& path);

} // namespace isoscope
