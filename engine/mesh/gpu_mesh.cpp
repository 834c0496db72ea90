#include "mesh/gpu_mesh.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "core/context.h"
#include "core/error.h"
#include "core/transfer.h"

namespace isoscope {

namespace {

constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                        VK_BUFFER_USAGE_TRANSFER_DST_BIT;

void checkCapacity(const Context& context, uint64_t count, uint64_t elementBytes, const char* what)
{
    uint64_t bytes = count * elementBytes;
    uint64_t range = context.info().maxStorageBufferRange;
    if (count > UINT32_MAX || bytes > range)
        fail(std::string("the mesh needs ") + std::to_string(count) + " " + what + " (" + formatBytes(bytes) +
             "), more than this device's storage buffer range (" + formatBytes(range) +
             "): extract a subvolume or a coarser level");
}

} // namespace

GpuMesh createGpuMesh(Context& context, uint64_t vertexCapacity, uint64_t faceCapacity, uint32_t faceSize)
{
    vertexCapacity = std::max<uint64_t>(vertexCapacity, 1);
    faceCapacity = std::max<uint64_t>(faceCapacity, 1);
    checkCapacity(context, vertexCapacity, sizeof(GpuMeshVertex), "vertices");
    checkCapacity(context, faceCapacity * faceSize, sizeof(uint32_t), "indices");

    GpuMesh mesh;
    mesh.vertexCapacity = uint32_t(vertexCapacity);
    mesh.faceCapacity = uint32_t(faceCapacity);
    mesh.faceSize = faceSize;
    Allocator& allocator = context.allocator();
    mesh.vertices = allocator.createBuffer(vertexCapacity * sizeof(GpuMeshVertex),
                                           kStorage | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, MemoryUsage::DeviceLocal,
                                           "mesh vertex buffer");
    mesh.indices = allocator.createBuffer(faceCapacity * faceSize * sizeof(uint32_t),
                                          kStorage | VK_BUFFER_USAGE_INDEX_BUFFER_BIT, MemoryUsage::DeviceLocal,
                                          "mesh index buffer");
    mesh.counters = allocator.createBuffer(sizeof(GpuMeshCounters), kStorage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                                           MemoryUsage::DeviceLocal, "mesh counters");
    GpuMeshCounters counters{};
    counters.vertexCapacity = mesh.vertexCapacity;
    counters.faceCapacity = mesh.faceCapacity;
    uploadToBuffer(context, mesh.counters, &counters, sizeof(counters));
    return mesh;
}

GpuMeshCounters readCounters(Context& context, const GpuMesh& mesh)
{
    return downloadBufferAs<GpuMeshCounters>(context, mesh.counters, 1)[0];
}

Mesh downloadMesh(Context& context, const GpuMesh& mesh)
{
    GpuMeshCounters counters = readCounters(context, mesh);
    if (counters.overflow || counters.vertexCount > mesh.vertexCapacity || counters.faceCount > mesh.faceCapacity)
        fail("the GPU mesh overflowed its buffers (" + std::to_string(counters.vertexCount) + " vertices for " +
             std::to_string(mesh.vertexCapacity) + ", " + std::to_string(counters.faceCount) + " faces for " +
             std::to_string(mesh.faceCapacity) + "): extract again with larger buffers");
    Mesh result;
    result.faceSize = mesh.faceSize;
    std::vector<GpuMeshVertex> vertices =
        downloadBufferAs<GpuMeshVertex>(context, mesh.vertices, counters.vertexCount);
    result.positions.reserve(vertices.size());
    result.normals.reserve(vertices.size());
    for (const GpuMeshVertex& v : vertices) {
        result.positions.emplace_back(v.position[0], v.position[1], v.position[2]);
        result.normals.emplace_back(v.normal[0], v.normal[1], v.normal[2]);
    }
    result.indices = downloadBufferAs<uint32_t, MeshArray<uint32_t>>(context, mesh.indices, size_t(counters.faceCount) * mesh.faceSize);
    return result;
}

GpuMesh uploadMesh(Context& context, const Mesh& mesh)
{
    GpuMesh gpu = createGpuMesh(context, mesh.positions.size(), mesh.faceCount(), mesh.faceSize);
    std::vector<GpuMeshVertex> vertices(mesh.positions.size());
    for (size_t i = 0; i < vertices.size(); ++i) {
        glm::vec3 n = i < mesh.normals.size() ? mesh.normals[i] : glm::vec3(0.0f);
        vertices[i] = {{mesh.positions[i].x, mesh.positions[i].y, mesh.positions[i].z}, {n.x, n.y, n.z}};
    }
    if (!vertices.empty())
        uploadToBuffer(context, gpu.vertices, vertices.data(), vertices.size() * sizeof(GpuMeshVertex));
    if (!mesh.indices.empty())
        uploadToBuffer(context, gpu.indices, mesh.indices.data(), mesh.indices.size() * sizeof(uint32_t));
    GpuMeshCounters counters{};
    counters.draw = {uint32_t(mesh.indices.size()), 1, 0, 0, 0};
    counters.vertexCount = uint32_t(mesh.positions.size());
    counters.faceCount = uint32_t(mesh.faceCount());
    counters.vertexCapacity = gpu.vertexCapacity;
    counters.faceCapacity = gpu.faceCapacity;
    uploadToBuffer(context, gpu.counters, &counters, sizeof(counters));
    return gpu;
}

} // namespace isoscope
