// Binary STL: what 3D printing, CAD and every mesh viewer read. Triangles
// only, no shared vertices, one facet normal each.
#include <bit>
#include <cstring>
#include <string>
#include <vector>

#include <glm/geometric.hpp>

#include "core/error.h"
#include "io/mesh_file_support.h"
#include "io/mesh_io.h"

namespace isoscope {

static_assert(std::endian::native == std::endian::little, "the STL writer stores host floats as little-endian");

void writeStl(const Mesh& mesh, const std::filesystem::path& path, const WriteOptions& options)
{
    checkMeshForWriting(mesh, path);
    std::vector<uint32_t> triangles = triangleIndices(mesh);
    uint64_t count = triangles.size() / 3;
    if (count > UINT32_MAX)
        fail("cannot write " + path.string() + ": " + std::to_string(count) +
             " triangles; binary STL holds at most 2^32 - 1 (write .ply or .glb instead)");

    // The 80-byte header must not begin with "solid": readers take such files for ASCII STL.
    std::string header = "binary STL written by isoscope";
    header.resize(80, ' ');
    std::vector<char> body;
    body.reserve(4 + count * 50);
    appendBytes(body, uint32_t(count));
    for (uint64_t t = 0; t < count; ++t) {
        glm::vec3 a = mesh.positions[triangles[3 * t]], b = mesh.positions[triangles[3 * t + 1]],
                  c = mesh.positions[triangles[3 * t + 2]];
        // The facet normal follows the winding (right-hand rule), as the format defines it.
        glm::vec3 normal = glm::cross(b - a, c - a);
        float length = glm::length(normal);
        appendBytes(body, length > 0.0f ? normal / length : glm::vec3(0.0f));
        appendBytes(body, a);
        appendBytes(body, b);
        appendBytes(body, c);
        appendBytes(body, uint16_t(0)); // attribute byte count
    }
    writeFileParts(path, options, {header, body});
}

} // namespace isoscope
