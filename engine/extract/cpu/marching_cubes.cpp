#include "extract/cpu/marching_cubes.h"

#include <cmath>
#include <string>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include "core/error.h"
#include "extract/case_table.h"

namespace isoscope {

namespace {

constexpr uint32_t kNoVertex = UINT32_MAX;

bool isInside(float value, float iso) { return std::isfinite(value) && value >= iso; }

// The samples of the volume as float, one z plane at a time. A vertex needs
// the planes k-1 .. k+2 at most (gradients at both ends of a z-edge), so four
// slots, picked by z mod 4, never evict a plane still in use.
class PlaneCache {
public:
    explicit PlaneCache(const Volume& volume) : volume_(volume)
    {
        planeSize_ = uint64_t(volume.dims[0]) * volume.dims[1];
        for (int slot = 0; slot < 4; ++slot) {
            z_[slot] = UINT32_MAX;
            values_[slot].resize(planeSize_);
        }
    }

    const float* plane(uint32_t z)
    {
        int slot = z % 4;
        if (z_[slot] != z) {
            uint64_t first = uint64_t(z) * planeSize_;
            for (uint64_t i = 0; i < planeSize_; ++i)
                values_[slot][i] = volume_.valueAt(first + i);
            z_[slot] = z;
        }
        return values_[slot].data();
    }

    float sample(uint32_t x, uint32_t y, uint32_t z) { return plane(z)[uint64_t(y) * volume_.dims[0] + x]; }

private:
    const Volume& volume_;
    uint64_t planeSize_ = 0;
    uint32_t z_[4];
    std::vector<float> values_[4];
};

using GridPoint = std::array<uint32_t, 3>;

// The gradient at a sample in world units. Central differences inside; at the
// border, and where a neighbour is not finite, that neighbour is replaced by
// the centre sample, which turns the difference one-sided (divided by one
// spacing, not two). Not finite when the centre sample is not.
glm::dvec3 gradientAt(PlaneCache& samples, const Volume& volume, GridPoint point)
{
    glm::dvec3 gradient(0.0);
    for (int axis = 0; axis < 3; ++axis) {
        GridPoint low = point, high = point;
        if (point[axis] > 0) {
            --low[axis];
            if (!std::isfinite(samples.sample(low[0], low[1], low[2])))
                low = point;
        }
        if (point[axis] + 1 < volume.dims[axis]) {
            ++high[axis];
            if (!std::isfinite(samples.sample(high[0], high[1], high[2])))
                high = point;
        }
        int steps = int(high[axis] - low[axis]);
        if (steps == 0)
            continue;
        double difference = double(samples.sample(high[0], high[1], high[2])) - samples.sample(low[0], low[1], low[2]);
        gradient[axis] = difference / (steps * volume.spacing[axis]);
    }
    return gradient;
}

bool isFinite(const glm::dvec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

// Adds the vertex of the grid edge that leaves `start` along `axis`; the
// caller knows the edge is crossed.
uint32_t addEdgeVertex(Mesh& mesh, PlaneCache& samples, const Volume& volume, float iso, GridPoint start, int axis)
{
    if (mesh.positions.size() >= kNoVertex)
        fail("marching cubes on " + volume.source + " at iso " + std::to_string(iso) +
             ": the mesh needs more than 2^32 - 1 vertices; extract a subvolume or a coarser level");
    GridPoint end = start;
    ++end[axis];
    float a = samples.sample(start[0], start[1], start[2]);
    float b = samples.sample(end[0], end[1], end[2]);
    double t = std::isfinite(a) && std::isfinite(b) ? (double(iso) - a) / (double(b) - a) : 0.5;

    glm::dvec3 position;
    for (int i = 0; i < 3; ++i)
        position[i] = volume.origin[i] + (double(start[i]) + (i == axis ? t : 0.0)) * volume.spacing[i];

    glm::dvec3 gradientA = gradientAt(samples, volume, start);
    glm::dvec3 gradientB = gradientAt(samples, volume, end);
    if (!isFinite(gradientA))
        gradientA = glm::dvec3(0.0);
    if (!isFinite(gradientB))
        gradientB = glm::dvec3(0.0);
    glm::dvec3 normal = -((1.0 - t) * gradientA + t * gradientB);
    double length = glm::length(normal);
    if (length > 0.0 && std::isfinite(length)) {
        normal /= length;
    } else {
        normal = glm::dvec3(0.0);
        normal[axis] = isInside(a, iso) ? 1.0 : -1.0; // from the inside end toward the outside end
    }

    mesh.positions.emplace_back(position);
    mesh.normals.emplace_back(normal);
    return uint32_t(mesh.positions.size() - 1);
}

// The vertex numbers of the crossed grid edges, kept for two z planes (x- and
// y-edges of planes k and k+1) and one layer (z-edges between them), indexed
// by x + y * nx.
struct EdgeVertices {
    std::vector<uint32_t> xEdges[2];
    std::vector<uint32_t> yEdges[2];
    std::vector<uint32_t> zEdges;
};

void addPlaneVertices(Mesh& mesh, PlaneCache& samples, const Volume& volume, float iso, uint32_t z,
                      EdgeVertices& edges)
{
    uint32_t nx = volume.dims[0], ny = volume.dims[1];
    std::vector<uint32_t>& xEdges = edges.xEdges[z & 1];
    std::vector<uint32_t>& yEdges = edges.yEdges[z & 1];
    const float* plane = samples.plane(z);
    for (uint32_t y = 0; y < ny; ++y)
        for (uint32_t x = 0; x + 1 < nx; ++x) {
            uint64_t i = uint64_t(y) * nx + x;
            bool crossed = isInside(plane[i], iso) != isInside(plane[i + 1], iso);
            xEdges[i] = crossed ? addEdgeVertex(mesh, samples, volume, iso, {x, y, z}, 0) : kNoVertex;
        }
    for (uint32_t y = 0; y + 1 < ny; ++y)
        for (uint32_t x = 0; x < nx; ++x) {
            uint64_t i = uint64_t(y) * nx + x;
            bool crossed = isInside(plane[i], iso) != isInside(plane[i + nx], iso);
            yEdges[i] = crossed ? addEdgeVertex(mesh, samples, volume, iso, {x, y, z}, 1) : kNoVertex;
        }
}

void addLayerVertices(Mesh& mesh, PlaneCache& samples, const Volume& volume, float iso, uint32_t z,
                      EdgeVertices& edges)
{
    uint32_t nx = volume.dims[0], ny = volume.dims[1];
    for (uint32_t y = 0; y < ny; ++y)
        for (uint32_t x = 0; x < nx; ++x) {
            uint64_t i = uint64_t(y) * nx + x;
            bool crossed = isInside(samples.plane(z)[i], iso) != isInside(samples.plane(z + 1)[i], iso);
            edges.zEdges[i] = crossed ? addEdgeVertex(mesh, samples, volume, iso, {x, y, z}, 2) : kNoVertex;
        }
}

// Emits the triangles of the cells between planes z and z+1.
void addLayerTriangles(Mesh& mesh, PlaneCache& samples, const Volume& volume, float iso, uint32_t z,
                       const EdgeVertices& edges)
{
    const MarchingCubesCaseTable& cases = marchingCubesCases();
    uint32_t nx = volume.dims[0], ny = volume.dims[1];
    const float* planes[2] = {samples.plane(z), samples.plane(z + 1)};
    const std::vector<uint32_t>* edgeArrays[3][2] = {
        {&edges.xEdges[z & 1], &edges.xEdges[(z + 1) & 1]},
        {&edges.yEdges[z & 1], &edges.yEdges[(z + 1) & 1]},
        {&edges.zEdges, &edges.zEdges},
    };
    for (uint32_t y = 0; y + 1 < ny; ++y)
        for (uint32_t x = 0; x + 1 < nx; ++x) {
            int caseIndex = 0;
            for (int corner = 0; corner < kCubeCornerCount; ++corner) {
                auto [dx, dy, dz] = cubeCornerOffset(corner);
                if (isInside(planes[dz][uint64_t(y + dy) * nx + x + dx], iso))
                    caseIndex |= 1 << corner;
            }
            const MarchingCubesCase& entry = cases[caseIndex];
            for (int i = 0; i < 3 * entry.triangleCount; ++i) {
                CubeEdge edge = cubeEdge(entry.edges[i]);
                auto [dx, dy, dz] = cubeCornerOffset(edge.corner0);
                uint32_t vertex = (*edgeArrays[edge.axis][dz])[uint64_t(y + dy) * nx + x + dx];
                if (vertex == kNoVertex)
                    fail("marching cubes: cell (" + std::to_string(x) + ", " + std::to_string(y) + ", " +
                         std::to_string(z) + ") case " + std::to_string(caseIndex) + " uses edge " +
                         std::to_string(entry.edges[i]) + " that has no vertex (internal error)");
                mesh.indices.push_back(vertex);
            }
        }
}

} // namespace

Mesh extractMarchingCubes(const Volume& volume, float iso)
{
    Mesh mesh;
    mesh.faceSize = 3;
    auto [nx, ny, nz] = volume.dims;
    if (nx < 2 || ny < 2 || nz < 2)
        return mesh;
    if (volume.data.size() < volume.byteSize())
        fail("marching cubes on " + volume.source + ": the volume holds " + std::to_string(volume.data.size()) +
             " bytes, its dims need " + std::to_string(volume.byteSize()));

    PlaneCache samples(volume);
    EdgeVertices edges;
    uint64_t planeSize = uint64_t(nx) * ny;
    for (int parity = 0; parity < 2; ++parity) {
        edges.xEdges[parity].assign(planeSize, kNoVertex);
        edges.yEdges[parity].assign(planeSize, kNoVertex);
    }
    edges.zEdges.assign(planeSize, kNoVertex);

    addPlaneVertices(mesh, samples, volume, iso, 0, edges);
    for (uint32_t z = 0; z + 1 < nz; ++z) {
        addLayerVertices(mesh, samples, volume, iso, z, edges);
        addPlaneVertices(mesh, samples, volume, iso, z + 1, edges);
        addLayerTriangles(mesh, samples, volume, iso, z, edges);
    }
    return mesh;
}

} // namespace isoscope
