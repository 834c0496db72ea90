#include <bit>
#include <string>
#include <vector>

#include "core/error.h"
#include "io/mesh_file_support.h"
#include "io/mesh_io.h"

namespace isoscope {

namespace {

static_assert(std::endian::native == std::endian::little, "the PLY writer stores host floats as little-endian");

template <typename T>
void append(std::vector<char>& bytes, const T& value)
{
    const char* raw = reinterpret_cast<const char*>(&value);
    bytes.insert(bytes.end(), raw, raw + sizeof(T));
}

} // namespace

void writePly(const Mesh& mesh, const std::filesystem::path& path, const WriteOptions& options)
{
    checkMeshForWriting(mesh, path);
    bool hasNormals = !mesh.normals.empty();

    std::string header = "ply\nformat binary_little_endian 1.0\ncomment written by isoscope\n";
    header += "element vertex " + std::to_string(mesh.positions.size()) + "\n";
    header += "property float x\nproperty float y\nproperty float z\n";
    if (hasNormals)
        header += "property float nx\nproperty float ny\nproperty float nz\n";
    header += "element face " + std::to_string(mesh.faceCount()) + "\n";
    header += "property list uchar uint vertex_indices\nend_header\n";

    std::vector<char> body;
    body.reserve(mesh.positions.size() * (hasNormals ? 24 : 12) + mesh.faceCount() * (1 + 4 * mesh.faceSize));
    for (size_t v = 0; v < mesh.positions.size(); ++v) {
        append(body, mesh.positions[v]);
        if (hasNormals)
            append(body, mesh.normals[v]);
    }
    for (uint64_t face = 0; face < mesh.faceCount(); ++face) {
        append(body, uint8_t(mesh.faceSize));
        for (uint32_t i = 0; i < mesh.faceSize; ++i)
            append(body, mesh.indices[face * mesh.faceSize + i]);
    }

    writeFileParts(path, options, {header, body});
}

void writeMesh(const Mesh& mesh, const std::filesystem::path& path, const WriteOptions& options)
{
    std::string extension = lowerExtension(path);
    if (extension == ".ply")
        writePly(mesh, path, options);
    else if (extension == ".obj")
        writeObj(mesh, path, options);
    else if (extension == ".stl")
        writeStl(mesh, path, options);
    else if (extension == ".vtp")
        writeVtp(mesh, path, options);
    else if (extension == ".gltf")
        writeGltf(mesh, path, options);
    else if (extension == ".glb")
        writeGlb(mesh, path, options);
    else
        fail("cannot write " + path.string() + ": unknown mesh extension '" + extension +
             "'; use .ply, .obj, .stl, .vtp, .gltf or .glb");
}

} // namespace isoscope
