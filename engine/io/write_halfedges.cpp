#include <bit>
#include <cstdint>
#include <vector>

#include "core/error.h"
#include "io/halfedge_io.h"

namespace isoscope {

static_assert(std::endian::native == std::endian::little, "the halfedge file stores host integers as little-endian");

std::filesystem::path halfedgesPathFor(const std::filesystem::path& meshPath)
{
    std::filesystem::path path = meshPath;
    path += ".halfedges";
    return path;
}

void writeHalfedges(const ExtractionReport& report, const std::filesystem::path& path, const WriteOptions& options)
{
    uint64_t vertices = report.mesh.positions.size(), faces = report.mesh.faceCount();
    if (report.mesh.faceSize != 4 || report.halfedges.size() != 16 * faces ||
        report.vertexHalfedges.size() != vertices)
        fail("cannot write " + path.string() + ": the extraction made no halfedges for its mesh (--method dual --halfedges)");
    bool colors = !report.vertexColors.empty() || !report.faceColors.empty();
    if (colors && (report.vertexColors.size() != vertices || report.faceColors.size() != faces))
        fail("cannot write " + path.string() + ": the colours do not match the mesh (engine bug)");
    std::vector<uint32_t> header = {uint32_t(vertices), uint32_t(faces), uint32_t(4 * faces), colors ? 1u : 0u};
    OutputFile out(path, options.ifExists);
    uint64_t bytes = 8 + 4 * (header.size() + report.halfedges.size() + report.vertexHalfedges.size() +
                              report.vertexColors.size() + report.faceColors.size());
    out.reportProgress(options.progress, bytes);
    out.write("ISOHALF1", 8);
    auto words = [&](const std::vector<uint32_t>& values) { out.write(values.data(), values.size() * 4); };
    words(header);
    words(report.halfedges);
    words(report.vertexHalfedges);
    words(report.vertexColors);
    words(report.faceColors);
    out.commit();
}

} // namespace isoscope
