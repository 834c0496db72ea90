#include <cstdio>
#include <string>

#include "core/error.h"
#include "io/mesh_file_support.h"
#include "io/mesh_io.h"

namespace isoscope {

void writeObj(const Mesh& mesh, const std::filesystem::path& path, IfExists ifExists)
{
    checkMeshForWriting(mesh, path);
    bool hasNormals = !mesh.normals.empty();

    // stdio rather than iostreams: several times faster for millions of lines.
    OutputFile file(path, ifExists);
    FILE* out = file.stream();
    std::fprintf(out, "# written by isoscope: %zu vertices, %llu faces\n", mesh.positions.size(),
                 static_cast<unsigned long long>(mesh.faceCount()));
    // %.9g: 9 significant digits round-trip every float exactly.
    for (const auto& p : mesh.positions)
        std::fprintf(out, "v %.9g %.9g %.9g\n", p.x, p.y, p.z);
    if (hasNormals)
        for (const auto& n : mesh.normals)
            std::fprintf(out, "vn %.9g %.9g %.9g\n", n.x, n.y, n.z);
    for (uint64_t face = 0; face < mesh.faceCount(); ++face) {
        std::fputc('f', out);
        for (uint32_t i = 0; i < mesh.faceSize; ++i) {
            unsigned long long index = mesh.indices[face * mesh.faceSize + i] + 1ull;
            if (hasNormals)
                std::fprintf(out, " %llu//%llu", index, index);
            else
                std::fprintf(out, " %llu", index);
        }
        std::fputc('\n', out);
    }
    file.commit(); // checks what fprintf could not report
}

} // namespace isoscope
