#include "mesh/mesh_sink.h"

#include <algorithm>
#include <vector>

#include "core/parallel_for.h"

namespace isoscope {

namespace {

// Room for `more`, growing geometrically (reserving exactly what each part
// needs would copy the whole mesh once a part: quadratic in the parts), to
// the expected size where that is more but no more than 4x what is needed
// (a guess from the first parts may be far off). The new array's pages are
// made present on every core before the old contents move in, so neither
// the move nor the parts after it fault page by page on the one thread.
template <class T>
void reserveFor(std::vector<T>& values, size_t more, uint64_t expected)
{
    size_t needed = values.size() + more;
    if (needed <= values.capacity())
        return;
    size_t capacity = std::max({needed, values.capacity() * 2, size_t(std::min<uint64_t>(expected, uint64_t(needed) * 4))});
    std::vector<T> grown;
    grown.reserve(capacity);
    populatePages(grown.data(), capacity * sizeof(T));
    grown.insert(grown.end(), values.begin(), values.end());
    values = std::move(grown);
}

} // namespace

void MeshCollector::addVertices(std::span<const GpuMeshVertex> vertices)
{
    reserveFor(mesh_.positions, vertices.size(), expectedVertices_);
    reserveFor(mesh_.normals, vertices.size(), expectedVertices_);
    for (const GpuMeshVertex& v : vertices) {
        mesh_.positions.emplace_back(v.position[0], v.position[1], v.position[2]);
        mesh_.normals.emplace_back(v.normal[0], v.normal[1], v.normal[2]);
    }
}

void MeshCollector::expect(uint64_t vertices, uint64_t indices)
{
    expectedVertices_ = vertices;
    expectedIndices_ = indices;
}

void MeshCollector::addTriangles(std::span<const uint32_t> indices)
{
    reserveFor(mesh_.indices, indices.size(), expectedIndices_);
    mesh_.indices.insert(mesh_.indices.end(), indices.begin(), indices.end());
}

} // namespace isoscope
