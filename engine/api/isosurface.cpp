#include <algorithm>
#include <iterator>

#include "api/api_impl.h"
#include "core/parallel_for.h"
#include "extract/gpu_methods.h"
#include "io/mesh_io.h"
#include "mesh/mesh_download.h"
#include "mesh/world_transform.h"

namespace isoscope::api {

namespace {

// By Method's order.
const char* const kMethodNames[] = {"block", "scan", "histopyramid", "dual"};

} // namespace

const char* methodName(Method method)
{
    return size_t(method) < std::size(kMethodNames) ? kMethodNames[size_t(method)] : "";
}

std::vector<Method> methods()
{
    std::vector<Method> all;
    for (size_t i = 0; i < std::size(kMethodNames); ++i)
        if (findGpuMethod(kMethodNames[i])) // the engine's table of what this build has
            all.push_back(Method(i));
    return all;
}

uint32_t methodFaceSize(Method method)
{
    if (size_t(method) >= std::size(kMethodNames))
        return 0;
    return method == Method::Dual ? 4 : 3;
}

Result<Isosurface> Isosurface::create(Context& context, Volume& volume, const IsosurfaceOptions& options)
{
    return guarded<Isosurface>(ErrorCode::InvalidArgument, [&] {
        isoscope::Context& engine = *context.impl().context;
        ExtractOptions extract;
        if (size_t(options.method) >= std::size(kMethodNames))
            fail("IsosurfaceOptions::method is " + std::to_string(int(options.method)) + ": not a Method");
        extract.method = kMethodNames[size_t(options.method)];
        extract.weld = options.weld;
        if ((options.halfedges || options.colors) && options.method != Method::Dual)
            fail(std::string("IsosurfaceOptions::") + (options.halfedges ? "halfedges" : "colors") + ": the " +
                 extract.method + " method makes triangles, and only Method::Dual's quad mesh has halfedges and " +
                 "colours; leave it false");
        extract.halfedges = options.halfedges;
        extract.colors = options.colors;
        detail::VolumeImpl& source = volume.impl();
        std::unique_ptr<GpuExtractor> extractor = createGpuExtractor(engine, extract.method, source.field(), extract);
        float iso = float(0.5 * (source.volume.stats.min + source.volume.stats.max));
        std::array<uint64_t, 2> capacity = extractor->estimateCapacity(iso);
        GpuMesh mesh = createGpuMesh(engine, capacity[0], capacity[1], extractor->faceSize());
        Isosurface surface(
            own(new detail::IsosurfaceImpl{engine, source, std::move(extractor), std::move(mesh), iso}));
        detail::IsosurfaceImpl* impl = &surface.impl();
        impl->method = options.method;
        if (impl->mesh.faceSize == 4) // written by frames that leave the draw to the host (frame_graph.cpp)
            impl->quadDrawArguments = engine.allocator().createBuffer(
                sizeof(VkDrawIndirectCommand), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
                                                         VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                MemoryUsage::DeviceLocal, "quad draw arguments");
        source.derivations.push_back(
            {impl, [impl](RenderGraph& graph, const VolumeRegion& region) { impl->extractor->addRegionPasses(graph, region); }});
        return surface;
    });
}

Status Isosurface::setIsovalue(float iso)
{
    return guardedStatus(ErrorCode::InvalidArgument, [&] {
        checkIsovalue(iso);
        impl().iso = iso;
    });
}
float Isosurface::isovalue() const { return impl().iso; }

Result<HostMesh> Isosurface::extract(float iso)
{
    return guarded<HostMesh>(ErrorCode::InvalidArgument, [&] {
        checkIsovalue(iso);
        detail::IsosurfaceImpl& surface = impl();
        surface.iso = iso;
        // A graph of its own, submitted after the host's frames (the method's
        // work buffers may grow, so frames built before are rebuilt).
        VK_CHECK(waitQueueIdle(surface.context));
        surface.extracted = false;
        if (!surface.extraction || surface.extractionGeneration != surface.generation) {
            surface.extraction.reset(); // its mesh and transients go before the new ones are made
            surface.extraction = std::make_unique<GraphExtraction>(surface.context, *surface.extractor, iso);
        }
        GpuMeshCounters counts = surface.extraction->run(iso);
        surface.extractionGeneration = ++surface.generation;
        surface.lastPassTimes.clear();
        for (const auto& [pass, ms] : surface.extraction->graph().passTimings())
            surface.lastPassTimes.push_back({pass, ms});

        const GpuMesh& mesh = surface.extraction->mesh();
        const MeshDownloadLayout layout{counts.vertexCount, counts.faceCount, mesh.faceSize};
        ensureMeshDownloadBuffer(surface.context, surface.meshDownload, layout);
        downloadMeshInto(surface.context, mesh, layout, surface.meshDownload);
        HostMesh result;
        result.faceSize = mesh.faceSize;
        result.positions.resize(layout.vertices);
        result.normals.resize(layout.vertices);
        result.indices.resize(layout.faces * layout.faceSize);
        const GpuMeshVertex* vertices = layout.vertexData(surface.meshDownload);
        constexpr uint64_t kChunk = uint64_t(1) << 16; // vertices a task: large enough to hide the scheduling
        parallelFor((layout.vertices + kChunk - 1) / kChunk, hostThreads(), [&](uint64_t chunk) {
            const uint64_t end = std::min(layout.vertices, (chunk + 1) * kChunk);
            for (uint64_t v = chunk * kChunk; v < end; ++v) {
                const GpuMeshVertex& vertex = vertices[v];
                result.positions[v] = {vertex.position[0], vertex.position[1], vertex.position[2]};
                result.normals[v] = {vertex.normal[0], vertex.normal[1], vertex.normal[2]};
            }
        });
        if (!result.indices.empty())
            parallelCopy(result.indices.data(), layout.indexData(surface.meshDownload),
                         result.indices.size() * sizeof(uint32_t));
        surface.extracted = true;
        return result;
    });
}

std::vector<PassTime> Isosurface::lastPassTimes() const { return impl().lastPassTimes; }

Status Isosurface::writeMesh(const std::string& path) const
{
    return guardedStatus(ErrorCode::InvalidFile, [&] {
        if (!impl().extracted)
            fail("Isosurface::writeMesh(" + path + "): nothing extracted yet; call extract() first");
        // The kept extraction's mesh holds the last extract()'s until the next one.
        isoscope::Mesh placed = downloadMesh(impl().context, impl().extraction->mesh());
        placeInWorld(placed, impl().volume.volume); // a file's rotation, where it has one
        isoscope::writeMesh(placed, path);
    });
}

MeshBuffers Isosurface::buffers() const
{
    const GpuMesh& mesh = impl().mesh;
    MeshBuffers buffers;
    buffers.vertices = mesh.vertices.buffer;
    buffers.indices = mesh.indices.buffer;
    buffers.drawArguments = mesh.counters.buffer;
    buffers.drawArgumentsOffset = offsetof(GpuMeshCounters, draw);
    buffers.vertexStride = sizeof(GpuMeshVertex);
    buffers.positionOffset = offsetof(GpuMeshVertex, position);
    buffers.normalOffset = offsetof(GpuMeshVertex, normal);
    buffers.faceSize = mesh.faceSize;
    buffers.quadDrawArguments = impl().quadDrawArguments.buffer;
    return buffers;
}

Method Isosurface::method() const { return impl().method; }

HalfedgeBuffers Isosurface::halfedgeBuffers() const
{
    GpuExtractor::HalfedgeBuffers buffers = impl().extractor->halfedgeBuffers();
    return {buffers.halfedges, buffers.vertexHalfedges, buffers.vertexColors, buffers.faceColors};
}

} // namespace isoscope::api
