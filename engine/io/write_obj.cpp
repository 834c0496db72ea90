#include <cstdio>
#include <string>

#include "core/error.h"
#include "io/mesh_file_support.h"
#include "io/mesh_io.h"

namespace isoscope {

namespace {

// An OBJ's size is known only once written: progress counts its lines, and
// the bytes fprintf says it wrote, for a rate.
struct LineProgress {
    const Progress& progress;
    std::string what;
    uint64_t total = 0;
    uint64_t lines = 0, bytes = 0, nextReport = kProgressStepBytes;

    void report() const
    {
        if (progress)
            progress({what, lines, total, "lines", bytes});
    }
    void wrote(int lineBytes)
    {
        ++lines;
        bytes += lineBytes > 0 ? uint64_t(lineBytes) : 0; // a failed fprintf is reported by commit()
        if (bytes >= nextReport && lines < total) {
            report();
            nextReport = bytes + kProgressStepBytes;
        }
    }
};

} // namespace

void writeObj(const Mesh& mesh, const std::filesystem::path& path, const WriteOptions& options)
{
    checkMeshForWriting(mesh, path);
    bool hasNormals = !mesh.normals.empty();

    // stdio rather than iostreams: several times faster for millions of lines.
    OutputFile file(path, options.ifExists);
    FILE* out = file.stream();
    LineProgress lines{options.progress, "writing '" + path.filename().string() + "'",
                       1 + mesh.positions.size() + mesh.normals.size() + mesh.faceCount()};
    lines.report();
    lines.wrote(std::fprintf(out, "# written by isoscope: %zu vertices, %llu faces\n", mesh.positions.size(),
                             static_cast<unsigned long long>(mesh.faceCount())));
    // %.9g: 9 significant digits round-trip every float exactly.
    for (const auto& p : mesh.positions)
        lines.wrote(std::fprintf(out, "v %.9g %.9g %.9g\n", p.x, p.y, p.z));
    if (hasNormals)
        for (const auto& n : mesh.normals)
            lines.wrote(std::fprintf(out, "vn %.9g %.9g %.9g\n", n.x, n.y, n.z));
    for (uint64_t face = 0; face < mesh.faceCount(); ++face) {
        int lineBytes = std::fputc('f', out) != EOF ? 1 : 0;
        for (uint32_t i = 0; i < mesh.faceSize; ++i) {
            unsigned long long index = mesh.indices[face * mesh.faceSize + i] + 1ull;
            if (hasNormals)
                lineBytes += std::fprintf(out, " %llu//%llu", index, index);
            else
                lineBytes += std::fprintf(out, " %llu", index);
        }
        lines.wrote(lineBytes + (std::fputc('\n', out) != EOF ? 1 : 0));
    }
    file.commit(); // checks what fprintf could not report
    lines.lines = lines.total;
    lines.report();
}

} // namespace isoscope
