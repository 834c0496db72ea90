#pragma once
// Internal to engine/io: what the mesh readers and writers share.
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "io/output_file.h"
#include "mesh/mesh.h"

namespace isoscope {

// Larger mesh files are refused before anything is read: 16 GiB holds the
// 2^32 - 1 vertices a uint32 index can name, as binary PLY, with room to spare.
constexpr uint64_t kMaxMeshFileBytes = uint64_t(1) << 34;

// The whole of a regular file, checked first: a folder, a device (/dev/zero
// would never end), a pipe (it would block) or a file above maxBytes fails,
// naming the file, before any allocation. Opened without blocking. Reports
// "reading '<file name>'" in bytes to progress.
std::string readRegularFile(const std::filesystem::path& path, uint64_t maxBytes = kMaxMeshFileBytes,
                            const Progress& progress = {});

// ".ply" for "Mesh.PLY": the extension, lowercase, for choosing a format.
std::string lowerExtension(const std::filesystem::path& path);

// Fails, naming path, unless mesh can be written: faceSize 3 or 4, and
// normals either absent or one per vertex.
void checkMeshForWriting(const Mesh& mesh, const std::filesystem::path& path);

// Three indices per triangle: triangles as they are, each quad (a, b, c, d)
// as (a, b, c) and (a, c, d), for formats that store triangles only.
std::vector<uint32_t> triangleIndices(const Mesh& mesh);

// Appends value's bytes (host order, which the writers assert is little-endian).
template <typename T>
void appendBytes(std::vector<char>& bytes, const T& value)
{
    const char* raw = reinterpret_cast<const char*>(&value);
    bytes.insert(bytes.end(), raw, raw + sizeof(T));
}

// Writes the parts one after another into path, all or nothing
// (io/output_file.h), reporting to options.progress; fails naming path when
// it exists and options.ifExists is Refuse, or when it cannot be written
// (disk full).
void writeFileParts(const std::filesystem::path& path, const WriteOptions& options,
                    std::initializer_list<std::span<const char>> parts);

} // namespace isoscope
