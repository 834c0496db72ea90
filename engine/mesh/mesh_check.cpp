#include "mesh/mesh_check.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include <glm/geometric.hpp>

#include "core/error.h"

namespace isoscope {

namespace {

void checkIndices(const Mesh& mesh)
{
    if (mesh.faceSize != 3 && mesh.faceSize != 4)
        fail("mesh check: faceSize is " + std::to_string(mesh.faceSize) + ", expected 3 or 4");
    if (mesh.indices.size() % mesh.faceSize != 0)
        fail("mesh check: " + std::to_string(mesh.indices.size()) + " indices is not a whole number of faces of " +
             std::to_string(mesh.faceSize));
    for (size_t i = 0; i < mesh.indices.size(); ++i)
        if (mesh.indices[i] >= mesh.positions.size())
            fail("mesh check: face " + std::to_string(i / mesh.faceSize) + " uses vertex " +
                 std::to_string(mesh.indices[i]) + " of " + std::to_string(mesh.positions.size()));
}

// One side of an edge as one face traverses it.
struct HalfEdge {
    uint64_t key;  // (smaller index << 32) | larger index
    bool forward;  // whether the face goes from the smaller index to the larger
};

void countEdges(const Mesh& mesh, MeshReport& report)
{
    std::vector<HalfEdge> halfEdges;
    halfEdges.reserve(mesh.indices.size());
    for (uint64_t face = 0; face < report.faces; ++face) {
        const uint32_t* corners = mesh.indices.data() + face * mesh.faceSize;
        for (uint32_t i = 0; i < mesh.faceSize; ++i) {
            uint32_t a = corners[i], b = corners[(i + 1) % mesh.faceSize];
            if (a == b)
                continue; // a collapsed side of a degenerate face has no edge
            halfEdges.push_back({(uint64_t(std::min(a, b)) << 32) | std::max(a, b), a < b});
        }
    }
    std::sort(halfEdges.begin(), halfEdges.end(),
              [](const HalfEdge& x, const HalfEdge& y) { return x.key < y.key; });
    for (size_t first = 0; first < halfEdges.size();) {
        size_t last = first;
        int forward = 0;
        while (last < halfEdges.size() && halfEdges[last].key == halfEdges[first].key)
            forward += halfEdges[last++].forward;
        size_t uses = last - first;
        ++report.edges;
        if (uses == 1)
            ++report.boundaryEdges;
        else if (uses > 2)
            ++report.nonManifoldEdges;
        else if (forward != 1)
            ++report.inconsistentEdges;
        first = last;
    }
}

uint32_t findRoot(std::vector<uint32_t>& parent, uint32_t v)
{
    while (parent[v] != v) {
        parent[v] = parent[parent[v]];
        v = parent[v];
    }
    return v;
}

void countComponents(const Mesh& mesh, MeshReport& report)
{
    std::vector<uint32_t> parent(mesh.positions.size());
    std::iota(parent.begin(), parent.end(), 0u);
    std::vector<bool> referenced(mesh.positions.size(), false);
    for (uint64_t face = 0; face < report.faces; ++face) {
        const uint32_t* corners = mesh.indices.data() + face * mesh.faceSize;
        for (uint32_t i = 0; i < mesh.faceSize; ++i) {
            referenced[corners[i]] = true;
            parent[findRoot(parent, corners[i])] = findRoot(parent, corners[0]);
        }
    }
    for (uint32_t v = 0; v < parent.size(); ++v) {
        report.referencedVertices += referenced[v];
        report.components += referenced[v] && findRoot(parent, v) == v;
    }
}

double triangleArea(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c)
{
    glm::dvec3 u = glm::dvec3(b) - glm::dvec3(a);
    glm::dvec3 v = glm::dvec3(c) - glm::dvec3(a);
    return 0.5 * glm::length(glm::cross(u, v));
}

void measureFaces(const Mesh& mesh, MeshReport& report)
{
    for (uint64_t face = 0; face < report.faces; ++face) {
        const uint32_t* corners = mesh.indices.data() + face * mesh.faceSize;
        double area = 0.0;
        for (uint32_t i = 1; i + 1 < mesh.faceSize; ++i)
            area += triangleArea(mesh.positions[corners[0]], mesh.positions[corners[i]], mesh.positions[corners[i + 1]]);
        bool repeated = false;
        for (uint32_t i = 0; i < mesh.faceSize; ++i)
            for (uint32_t j = i + 1; j < mesh.faceSize; ++j)
                repeated |= corners[i] == corners[j];
        report.surfaceArea += area;
        report.degenerateFaces += repeated || area == 0.0;
    }
}

void countSharedPositions(const Mesh& mesh, MeshReport& report)
{
    std::vector<uint32_t> order(mesh.positions.size());
    std::iota(order.begin(), order.end(), 0u);
    auto less = [&](uint32_t a, uint32_t b) {
        const glm::vec3& p = mesh.positions[a];
        const glm::vec3& q = mesh.positions[b];
        return p.x != q.x ? p.x < q.x : p.y != q.y ? p.y < q.y : p.z < q.z;
    };
    std::sort(order.begin(), order.end(), less);
    for (size_t first = 0; first < order.size();) {
        size_t last = first + 1;
        while (last < order.size() && mesh.positions[order[last]] == mesh.positions[order[first]])
            ++last;
        if (last - first > 1)
            report.verticesSharingPosition += last - first;
        first = last;
    }
}

} // namespace

MeshReport checkMesh(const Mesh& mesh)
{
    checkIndices(mesh);
    MeshReport report;
    report.vertices = mesh.positions.size();
    report.faces = mesh.faceCount();
    report.faceSize = mesh.faceSize;
    countEdges(mesh, report);
    countComponents(mesh, report);
    measureFaces(mesh, report);
    countSharedPositions(mesh, report);
    report.eulerCharacteristic =
        int64_t(report.referencedVertices) - int64_t(report.edges) + int64_t(report.faces);
    return report;
}

nlohmann::json toJson(const MeshReport& report)
{
    return {
        {"vertices", report.vertices},
        {"referenced_vertices", report.referencedVertices},
        {"faces", report.faces},
        {"face_size", report.faceSize},
        {"edges", report.edges},
        {"boundary_edges", report.boundaryEdges},
        {"non_manifold_edges", report.nonManifoldEdges},
        {"inconsistent_edges", report.inconsistentEdges},
        {"components", report.components},
        {"euler_characteristic", report.eulerCharacteristic},
        {"surface_area", report.surfaceArea},
        {"vertices_sharing_position", report.verticesSharingPosition},
        {"degenerate_faces", report.degenerateFaces},
        {"closed", report.closed()},
    };
}

} // namespace isoscope
