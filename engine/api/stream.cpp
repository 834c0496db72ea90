// The public streamed extraction (isoscope/stream.h) over extract/stream/.
#include "api_impl.h"
#include "extract/stream/streamed_extraction.h"
#include "io/mesh_io.h"
#include "io/mesh_stream.h"
#include "mesh/world_transform.h"
#include "volume/volume_source.h"

namespace isoscope::api {

namespace {

StreamStats streamToFile(Context& context, VolumeSource& source, float iso, const std::string& meshPath,
                         const StreamOptions& options)
{
    checkIsovalue(iso);
    if (meshPath.empty())
        fail("extractStreamed: meshPath is empty; name the mesh file to write (.ply, .stl, .obj, .glb, ...)");
    ExtractOptions extract;
    extract.method = methodName(options.method);
    isoscope::StreamOptions stream;
    stream.deviceBudget = options.deviceBudget;
    stream.maxSlabLayers = options.maxSlabLayers;
    const isoscope::Volume& grid = source.grid();
    isoscope::Context& engine = *context.impl().context;
    StreamReport report;
    if (streamsMeshFormat(meshPath)) {
        auto writer = openStreamedMeshWriter(meshPath, grid, MeshPlacement::World, IfExists::Replace);
        report = extractStreamed(engine, source, iso, extract, stream, *writer);
        writer->commit();
    } else {
        MeshCollector collector;
        report = extractStreamed(engine, source, iso, extract, stream, collector);
        placeInWorld(collector.mesh(), grid);
        writeMesh(collector.mesh(), meshPath);
    }
    return StreamStats{report.vertexCount, report.faceCount, uint32_t(report.slabs.size()), report.wallMs * 1e-3,
                       report.peakDeviceBytes};
}

} // namespace

Result<StreamStats> extractStreamed(Context& context, std::string_view pathOrSpec, float iso,
                                    const std::string& meshPath, const StreamOptions& options)
{
    return guarded<StreamStats>(ErrorCode::InvalidFile, [&] {
        auto source = openVolumeSource(pathOrSpec);
        return streamToFile(context, *source, iso, meshPath, options);
    });
}

Result<StreamStats> extractStreamed(Context& context, const VolumeDesc& desc, const PlaneWriter& planes, float iso,
                                    const std::string& meshPath, const StreamOptions& options)
{
    return guarded<StreamStats>(ErrorCode::InvalidArgument, [&] {
        isoscope::Volume grid = engineGrid(desc, "extractStreamed");
        grid.source = "host planes";
        if (!planes)
            fail("extractStreamed: planes is empty; give the function that writes the volume's planes");
        auto source = makeCallbackSource(grid, [&](uint32_t first, uint32_t count, std::byte* out) {
            Status status = planes(first, count, out);
            if (!status)
                fail("extractStreamed: the host's planes " + std::to_string(first) + ".." +
                     std::to_string(first + count) + " failed: " + status.error().message);
        });
        return streamToFile(context, *source, iso, meshPath, options);
    });
}

} // namespace isoscope::api
