// The CPU reference Marching Cubes extractor: topology, geometry, orientation
// and the documented edge cases (exact-iso samples, non-finite samples, thin
// volumes, isovalues outside the range).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <random>

#include <glm/geometric.hpp>

#include "../datasets_dir.h"
#include "extract/case_table.h"
#include "extract/cpu/marching_cubes.h"
#include "mesh/mesh_check.h"
#include "volume/readers.h"
#include "volume/synthetic.h"

using namespace isoscope;

namespace {

// A float32 volume on a unit grid with samples field(x, y, z).
Volume makeFloatVolume(std::array<uint32_t, 3> dims, const std::function<float(uint32_t, uint32_t, uint32_t)>& field)
{
    Volume volume;
    volume.dims = dims;
    volume.type = ScalarType::Float32;
    volume.data.resize(volume.byteSize());
    for (uint32_t z = 0; z < dims[2]; ++z)
        for (uint32_t y = 0; y < dims[1]; ++y)
            for (uint32_t x = 0; x < dims[0]; ++x) {
                float value = field(x, y, z);
                std::memcpy(volume.data.data() + volume.index(x, y, z) * 4, &value, 4);
            }
    volume.source = "test volume";
    computeStats(volume);
    return volume;
}

bool isInside(float value, float iso) { return std::isfinite(value) && value >= iso; }

uint64_t countCrossedGridEdges(const Volume& volume, float iso)
{
    uint64_t count = 0;
    auto [nx, ny, nz] = volume.dims;
    for (uint32_t z = 0; z < nz; ++z)
        for (uint32_t y = 0; y < ny; ++y)
            for (uint32_t x = 0; x < nx; ++x) {
                bool here = isInside(volume.value(x, y, z), iso);
                count += x + 1 < nx && here != isInside(volume.value(x + 1, y, z), iso);
                count += y + 1 < ny && here != isInside(volume.value(x, y + 1, z), iso);
                count += z + 1 < nz && here != isInside(volume.value(x, y, z + 1), iso);
            }
    return count;
}

// The world coordinate of the last sample on an axis, computed as the extractor does.
float farSide(const Volume& volume, int axis)
{
    return float(volume.origin[axis] + double(volume.dims[axis] - 1) * volume.spacing[axis]);
}

bool onSameBorderPlane(const Volume& volume, const glm::vec3& a, const glm::vec3& b)
{
    for (int axis = 0; axis < 3; ++axis) {
        float low = float(volume.origin[axis]), high = farSide(volume, axis);
        if ((a[axis] == low && b[axis] == low) || (a[axis] == high && b[axis] == high))
            return true;
    }
    return false;
}

// Boundary edges of the mesh (used by one triangle) that do not lie on the
// volume's border: holes that should not exist.
uint64_t countInteriorBoundaryEdges(const Volume& volume, const Mesh& mesh)
{
    std::map<std::pair<uint32_t, uint32_t>, int> uses;
    for (size_t i = 0; i < mesh.indices.size(); i += 3)
        for (int k = 0; k < 3; ++k) {
            uint32_t a = mesh.indices[i + k], b = mesh.indices[i + (k + 1) % 3];
            ++uses[{std::min(a, b), std::max(a, b)}];
        }
    uint64_t interior = 0;
    for (auto& [edge, count] : uses)
        if (count == 1 && !onSameBorderPlane(volume, mesh.positions[edge.first], mesh.positions[edge.second]))
            ++interior;
    return interior;
}

// The fraction of non-degenerate triangles whose winding normal agrees with
// the mean of their vertex normals.
double fractionWindingAgreesWithNormals(const Mesh& mesh)
{
    uint64_t agree = 0, counted = 0;
    for (size_t i = 0; i < mesh.indices.size(); i += 3) {
        glm::vec3 a = mesh.positions[mesh.indices[i]], b = mesh.positions[mesh.indices[i + 1]],
                  c = mesh.positions[mesh.indices[i + 2]];
        glm::vec3 faceNormal = glm::cross(b - a, c - a);
        if (glm::length(faceNormal) == 0.0f)
            continue;
        glm::vec3 vertexNormals =
            mesh.normals[mesh.indices[i]] + mesh.normals[mesh.indices[i + 1]] + mesh.normals[mesh.indices[i + 2]];
        ++counted;
        agree += glm::dot(faceNormal, vertexNormals) > 0.0f;
    }
    return counted ? double(agree) / double(counted) : 1.0;
}

void requireWellFormed(const Mesh& mesh)
{
    REQUIRE(mesh.faceSize == 3);
    REQUIRE(mesh.normals.size() == mesh.positions.size());
    for (size_t v = 0; v < mesh.positions.size(); ++v) {
        REQUIRE(std::isfinite(mesh.positions[v].x + mesh.positions[v].y + mesh.positions[v].z));
        REQUIRE(glm::length(mesh.normals[v]) == Approx(1.0f).margin(1e-5));
    }
}

} // namespace

TEST_CASE("a sphere is one closed surface of Euler characteristic 2", "[mc]")
{
    for (const char* spec : {"sphere:16", "sphere:33", "sphere:20x31x17"}) {
        CAPTURE(spec);
        Volume volume = makeSyntheticVolume(spec);
        Mesh mesh = extractMarchingCubes(volume, 0.6f);
        requireWellFormed(mesh);
        MeshReport report = checkMesh(mesh);
        CHECK(report.faces > 100);
        CHECK(report.boundaryEdges == 0);
        CHECK(report.nonManifoldEdges == 0);
        CHECK(report.inconsistentEdges == 0);
        CHECK(report.components == 1);
        CHECK(report.eulerCharacteristic == 2);
        CHECK(report.vertices == countCrossedGridEdges(volume, 0.6f));
        // Area of a sphere of radius 0.6, from below: the mesh is inscribed.
        CHECK(report.surfaceArea == Approx(4.0 * M_PI * 0.36).epsilon(0.03));
        CHECK(report.surfaceArea < 4.0 * M_PI * 0.36);
        CHECK(fractionWindingAgreesWithNormals(mesh) == 1.0);
    }
}

TEST_CASE("a torus is one closed surface of Euler characteristic 0", "[mc]")
{
    Volume volume = makeSyntheticVolume("torus:48");
    Mesh mesh = extractMarchingCubes(volume, 0.2f * 0.2f);
    requireWellFormed(mesh);
    MeshReport report = checkMesh(mesh);
    CHECK(report.closed());
    CHECK(report.inconsistentEdges == 0);
    CHECK(report.components == 1);
    CHECK(report.eulerCharacteristic == 0);
    CHECK(fractionWindingAgreesWithNormals(mesh) == 1.0);
}

TEST_CASE("cayley and gyroid surfaces are open only at the volume border", "[mc]")
{
    struct Surface {
        const char* spec;
        float iso;
    };
    for (Surface surface : {Surface{"cayley:64", -0.012f}, Surface{"cayley:31", 0.0f}, Surface{"gyroid:40", 0.0f},
                            Surface{"gyroid:37x41x29", 0.3f}}) {
        CAPTURE(surface.spec, surface.iso);
        Volume volume = makeSyntheticVolume(surface.spec);
        Mesh mesh = extractMarchingCubes(volume, surface.iso);
        requireWellFormed(mesh);
        MeshReport report = checkMesh(mesh);
        CHECK(report.faces > 1000);
        CHECK(report.boundaryEdges > 0);
        CHECK(countInteriorBoundaryEdges(volume, mesh) == 0);
        CHECK(report.nonManifoldEdges == 0);
        CHECK(report.inconsistentEdges == 0);
        CHECK(report.vertices == countCrossedGridEdges(volume, surface.iso));
        CHECK(fractionWindingAgreesWithNormals(mesh) > 0.995);
    }
}

TEST_CASE("random volumes, full of ambiguous faces, still give manifold meshes without holes", "[mc]")
{
    std::mt19937 random(12345);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    for (int trial = 0; trial < 8; ++trial) {
        CAPTURE(trial);
        Volume volume = makeFloatVolume({13, 11, 9}, [&](uint32_t, uint32_t, uint32_t) {
            float value = uniform(random);
            return trial % 2 ? (value > 0.0f ? 1.0f : -1.0f) : value; // binary volumes: every face is a 0/1 pattern
        });
        Mesh mesh = extractMarchingCubes(volume, 0.0f);
        MeshReport report = checkMesh(mesh);
        CHECK(report.nonManifoldEdges == 0);
        CHECK(report.inconsistentEdges == 0);
        CHECK(countInteriorBoundaryEdges(volume, mesh) == 0);
        CHECK(report.vertices == countCrossedGridEdges(volume, 0.0f));
    }
}

TEST_CASE("every vertex lies on its grid edge where the linear interpolant equals iso", "[mc]")
{
    Volume volume = makeSyntheticVolume("gyroid:23x19x21");
    const float iso = 0.25f;
    Mesh mesh = extractMarchingCubes(volume, iso);
    REQUIRE(!mesh.positions.empty());
    for (const glm::vec3& p : mesh.positions) {
        std::array<double, 3> index{};
        int offGrid = -1;
        for (int axis = 0; axis < 3; ++axis) {
            index[axis] = (p[axis] - volume.origin[axis]) / volume.spacing[axis];
            if (std::abs(index[axis] - std::round(index[axis])) > 1e-4)
                offGrid = axis;
        }
        std::array<uint32_t, 3> low{}, high{};
        for (int axis = 0; axis < 3; ++axis)
            low[axis] = high[axis] = uint32_t(std::round(index[axis]));
        if (offGrid < 0)
            continue; // on a sample: t is 0 or 1 to float precision
        low[offGrid] = uint32_t(std::floor(index[offGrid]));
        high[offGrid] = low[offGrid] + 1;
        double t = index[offGrid] - low[offGrid];
        double a = volume.value(low[0], low[1], low[2]), b = volume.value(high[0], high[1], high[2]);
        CHECK((a >= iso) != (b >= iso));
        CHECK(a + t * (b - a) == Approx(iso).margin(1e-4));
    }
}

TEST_CASE("world positions follow origin and spacing", "[mc]")
{
    Volume unit = makeSyntheticVolume("sphere:12");
    Volume moved = unit;
    moved.spacing = {0.5, 2.0, 3.0};
    moved.origin = {10.0, -4.0, 0.25};
    Mesh a = extractMarchingCubes(unit, 0.7f);
    Mesh b = extractMarchingCubes(moved, 0.7f);
    REQUIRE(a.positions.size() == b.positions.size());
    REQUIRE(a.indices == b.indices);
    for (size_t v = 0; v < a.positions.size(); ++v)
        for (int axis = 0; axis < 3; ++axis) {
            double index = (a.positions[v][axis] - unit.origin[axis]) / unit.spacing[axis];
            CHECK(b.positions[v][axis] == Approx(moved.origin[axis] + index * moved.spacing[axis]).margin(1e-4));
        }
    // Anisotropic spacing changes the gradient, so the normals still point
    // along the winding.
    CHECK(fractionWindingAgreesWithNormals(b) == 1.0);
}

TEST_CASE("samples equal to iso keep every edge vertex: shared positions, zero-area triangles, still manifold", "[mc]")
{
    // A uint8 blob: 2 at the centre, 1 around it, 0 outside. At iso 1 the
    // ring samples are inside and every edge from a ring sample to a 0
    // sample puts its vertex exactly on the ring sample.
    Volume volume;
    volume.dims = {7, 7, 7};
    volume.type = ScalarType::UInt8;
    volume.data.resize(volume.byteSize());
    for (uint32_t z = 0; z < 7; ++z)
        for (uint32_t y = 0; y < 7; ++y)
            for (uint32_t x = 0; x < 7; ++x) {
                int distance = std::abs(int(x) - 3) + std::abs(int(y) - 3) + std::abs(int(z) - 3);
                volume.data[volume.index(x, y, z)] = std::byte(distance == 0 ? 2 : distance <= 2 ? 1 : 0);
            }
    volume.source = "exact-iso blob";
    computeStats(volume);

    Mesh mesh = extractMarchingCubes(volume, 1.0f);
    requireWellFormed(mesh);
    MeshReport report = checkMesh(mesh);
    CHECK(report.vertices == countCrossedGridEdges(volume, 1.0f));
    CHECK(report.verticesSharingPosition > 0);
    CHECK(report.degenerateFaces > 0);
    CHECK(report.closed());
    CHECK(report.inconsistentEdges == 0);
    CHECK(report.components == 1);
    CHECK(report.eulerCharacteristic == 2);
    // Every vertex sits on a sample equal to iso.
    for (const glm::vec3& p : mesh.positions) {
        CHECK(p.x == std::round(p.x));
        CHECK(p.y == std::round(p.y));
        CHECK(p.z == std::round(p.z));
        CHECK(volume.value(uint32_t(p.x), uint32_t(p.y), uint32_t(p.z)) == 1.0f);
    }
}

TEST_CASE("volumes two samples thin on any axis are extracted", "[mc]")
{
    for (const char* spec : {"gyroid:2x32x32", "gyroid:32x2x32", "gyroid:32x32x2", "gyroid:2x2x40", "gyroid:2"}) {
        CAPTURE(spec);
        Volume volume = makeSyntheticVolume(spec);
        float iso = 0.1f;
        Mesh mesh = extractMarchingCubes(volume, iso);
        MeshReport report = checkMesh(mesh);
        CHECK(report.vertices == countCrossedGridEdges(volume, iso));
        CHECK(report.nonManifoldEdges == 0);
        CHECK(report.inconsistentEdges == 0);
        CHECK(countInteriorBoundaryEdges(volume, mesh) == 0);
    }
    Volume volume = makeSyntheticVolume("gyroid:2x32x32");
    CHECK(extractMarchingCubes(volume, 0.1f).faceCount() > 0);
}

TEST_CASE("a single cell gives exactly the table's triangles for all 256 cases", "[mc]")
{
    for (int caseIndex = 0; caseIndex < kMarchingCubesCaseCount; ++caseIndex) {
        CAPTURE(caseIndex);
        Volume volume = makeFloatVolume({2, 2, 2}, [&](uint32_t x, uint32_t y, uint32_t z) {
            return (caseIndex >> (x + 2 * y + 4 * z) & 1) ? 1.0f : 0.0f;
        });
        Mesh mesh = extractMarchingCubes(volume, 0.5f);
        CHECK(mesh.faceCount() == marchingCubesCases()[caseIndex].triangleCount);
        MeshReport report = checkMesh(mesh);
        CHECK(report.nonManifoldEdges == 0);
        CHECK(report.eulerCharacteristic == marchingCubesLoops(caseIndex).loopCount); // one disk per loop
    }
}

TEST_CASE("isovalues outside the data range, and volumes without cells, give an empty mesh", "[mc]")
{
    Volume volume = makeSyntheticVolume("sphere:10");
    CHECK(extractMarchingCubes(volume, 100.0f).faceCount() == 0);
    CHECK(extractMarchingCubes(volume, 100.0f).positions.empty());
    CHECK(extractMarchingCubes(volume, -100.0f).faceCount() == 0);
    CHECK(extractMarchingCubes(volume, float(volume.stats.min)).faceCount() == 0); // every sample >= iso: all inside
    Volume flat = makeFloatVolume({1, 5, 5}, [](uint32_t, uint32_t y, uint32_t) { return float(y); });
    CHECK(extractMarchingCubes(flat, 2.5f).faceCount() == 0);
}

TEST_CASE("non-finite samples are outside and leave no NaN in the mesh", "[mc]")
{
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    Volume volume = makeFloatVolume({12, 12, 12}, [&](uint32_t x, uint32_t y, uint32_t z) {
        if (x == 5 && y == 5 && z == 5)
            return nan; // inside the blob: a small closed pocket around it
        if (x == 6 && y == 4 && z == 6)
            return inf;
        if (x == 0 && y == 0)
            return -inf;
        float dx = x - 5.5f, dy = y - 5.5f, dz = z - 5.5f;
        return 16.0f - (dx * dx + dy * dy + dz * dz); // a ball: high inside
    });
    Mesh mesh = extractMarchingCubes(volume, 0.0f);
    requireWellFormed(mesh);
    MeshReport report = checkMesh(mesh);
    CHECK(report.closed());
    CHECK(report.inconsistentEdges == 0);
    CHECK(report.components == 3); // the ball and the two pockets around +Inf and NaN
    CHECK(report.eulerCharacteristic == 6);
    // The pocket vertices sit at the midpoints of the edges to the NaN.
    int midpoints = 0;
    for (const glm::vec3& p : mesh.positions)
        midpoints += (p == glm::vec3(4.5f, 5.0f, 5.0f)) || (p == glm::vec3(5.5f, 5.0f, 5.0f));
    CHECK(midpoints == 2);
}

TEST_CASE("extraction is deterministic", "[mc]")
{
    Volume volume = makeSyntheticVolume("cayley:24");
    Mesh a = extractMarchingCubes(volume, -0.012f);
    Mesh b = extractMarchingCubes(volume, -0.012f);
    CHECK(a.positions == b.positions);
    CHECK(a.normals == b.normals);
    CHECK(a.indices == b.indices);
}

TEST_CASE("real volumes give vtkMarchingCubes' triangle counts at non-integer isovalues", "[mc]")
{
    // The counts are the manifest's (vtkMarchingCubes 9.1); at isovalues
    // between integers no sample equals iso, so the case tables decide alone.
    std::filesystem::path datasets = isoscope::test::datasetsDir();
    if (!std::filesystem::exists(datasets / "MANIFEST.md")) {
        WARN("skipped: no datasets at " << datasets.string());
        return;
    }
    struct Known {
        const char* file;
        float iso;
        uint64_t triangles;
    };
    for (Known known : {Known{"anatomical_33x41x25_int16.nhdr", 5000.5f, 15633},
                        Known{"fmri_128x96x24_int16.nhdr", 300.5f, 27778},
                        Known{"engine_256x256x128_uint8.nhdr", 150.5f, 377804}}) {
        CAPTURE(known.file, known.iso);
        Volume volume = readVolumeFile(datasets / known.file);
        Mesh mesh = extractMarchingCubes(volume, known.iso);
        CHECK(mesh.faceCount() == known.triangles);
        MeshReport report = checkMesh(mesh);
        CHECK(report.nonManifoldEdges == 0);
        CHECK(report.inconsistentEdges == 0);
        CHECK(countInteriorBoundaryEdges(volume, mesh) == 0);
    }
}
