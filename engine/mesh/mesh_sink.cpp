#include "mesh/mesh_sink.h"

#include <algorithm>
#include <vector>

namespace isoscope {

namespace {

// Room for `more`, growing geometrically: reserving exactly what each part
// needs would copy the whole mesh once a part (quadratic in the parts).
template <class T>
void reserveFor(std::vector<T>& values, size_t more)
{
    size_t needed = values.size() + more;
    if (needed > values.capacity())
        values.reserve(std::max(needed, values.capacity() * 2));
}

} // namespace

void MeshCollector::addVertices(std::span<const GpuMeshVertex> vertices)
{
    reserveFor(mesh_.positions, vertices.size());
    reserveFor(mesh_.normals, vertices.size());
    for (const GpuMeshVertex& v : vertices) {
        mesh_.positions.emplace_back(v.position[0], v.position[1], v.position[2]);
        mesh_.normals.emplace_back(v.normal[0], v.normal[1], v.normal[2]);
    }
}

void MeshCollector::addTriangles(std::span<const uint32_t> indices)
{
    reserveFor(mesh_.indices, indices.size());
    mesh_.indices.insert(mesh_.indices.end(), indices.begin(), indices.end());
}

} // namespace isoscope
