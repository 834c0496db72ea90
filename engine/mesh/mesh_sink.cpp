#include "mesh/mesh_sink.h"

namespace isoscope {

void MeshCollector::addVertices(std::span<const GpuMeshVertex> vertices)
{
    mesh_.positions.reserve(mesh_.positions.size() + vertices.size());
    mesh_.normals.reserve(mesh_.normals.size() + vertices.size());
    for (const GpuMeshVertex& v : vertices) {
        mesh_.positions.emplace_back(v.position[0], v.position[1], v.position[2]);
        mesh_.normals.emplace_back(v.normal[0], v.normal[1], v.normal[2]);
    }
}

void MeshCollector::addTriangles(std::span<const uint32_t> indices)
{
    mesh_.indices.insert(mesh_.indices.end(), indices.begin(), indices.end());
}

} // namespace isoscope
