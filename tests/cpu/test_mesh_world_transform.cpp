// Meshes moved from the extraction frame into a volume's world or index space.
#include <catch2/catch.hpp>

#include <glm/geometric.hpp>

#include "mesh/world_transform.h"

using namespace isoscope;

namespace {

// A volume whose extraction frame has spacing 2, 3, 4 and origin 10, 20, 30.
Volume frame()
{
    Volume volume;
    volume.dims = {4, 4, 4};
    volume.spacing = {2.0, 3.0, 4.0};
    volume.origin = {10.0, 20.0, 30.0};
    return volume;
}

// One triangle at grid indices (0,0,0), (1,0,0), (0,1,0), in the extraction frame.
Mesh triangle(const Volume& volume)
{
    Mesh mesh;
    auto at = [&](float i, float j, float k) {
        return glm::vec3(float(volume.origin[0] + i * volume.spacing[0]), float(volume.origin[1] + j * volume.spacing[1]),
                         float(volume.origin[2] + k * volume.spacing[2]));
    };
    mesh.positions = {at(0, 0, 0), at(1, 0, 0), at(0, 1, 0)};
    mesh.normals.assign(3, glm::vec3(0.0f, 0.0f, 1.0f));
    mesh.indices = {0, 1, 2};
    return mesh;
}

} // namespace

TEST_CASE("index space: positions become grid indices, normals follow the scaling", "[mesh]")
{
    Volume volume = frame();
    Mesh mesh = triangle(volume);
    mesh.normals.assign(3, glm::normalize(glm::vec3(1.0f, 1.0f, 0.0f)));
    toIndexSpace(mesh, volume);
    CHECK(mesh.positions == std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
    // Normals go through the inverse transpose of diag(1 / spacing): they scale by the spacing.
    glm::vec3 expected = glm::normalize(glm::vec3(2.0f, 3.0f, 0.0f));
    CHECK(glm::length(mesh.normals[0] - expected) < 1e-6f);
    CHECK(mesh.indices == std::vector<uint32_t>{0, 1, 2});
}

TEST_CASE("world: positions go through indexToWorld, a flip reverses the winding", "[mesh]")
{
    Volume volume = frame();
    Mesh unchanged = triangle(volume);
    placeInWorld(unchanged, volume); // axis-aligned: nothing to do
    CHECK(unchanged.positions == triangle(volume).positions);

    // i → -x (flip), j → y, k → z, steps 2, 3, 4, translation (5, 6, 7).
    volume.indexToWorld = Affine{{{-2, 0, 0, 5}, {0, 3, 0, 6}, {0, 0, 4, 7}, {0, 0, 0, 1}}};
    Mesh mesh = triangle(volume);
    placeInWorld(mesh, volume);
    CHECK(mesh.positions == std::vector<glm::vec3>{{5, 6, 7}, {3, 6, 7}, {5, 9, 7}});
    CHECK(mesh.indices == std::vector<uint32_t>{2, 1, 0}); // determinant < 0: winding reversed
    // The winding's normal still agrees with the vertex normals.
    glm::vec3 winding = glm::cross(mesh.positions[mesh.indices[1]] - mesh.positions[mesh.indices[0]],
                                   mesh.positions[mesh.indices[2]] - mesh.positions[mesh.indices[0]]);
    CHECK(glm::dot(winding, mesh.normals[0]) > 0.0f);
    CHECK(glm::length(mesh.normals[0] - glm::vec3(0, 0, 1)) < 1e-6f);

    // A rotation by 90° about z: i → y, j → -x.
    volume.indexToWorld = Affine{{{0, -3, 0, 0}, {2, 0, 0, 0}, {0, 0, 4, 0}, {0, 0, 0, 1}}};
    Mesh rotated = triangle(volume);
    rotated.normals.assign(3, glm::vec3(1.0f, 0.0f, 0.0f)); // along i
    placeInWorld(rotated, volume);
    CHECK(rotated.positions == std::vector<glm::vec3>{{0, 0, 0}, {0, 2, 0}, {-3, 0, 0}});
    CHECK(glm::length(rotated.normals[0] - glm::vec3(0, 1, 0)) < 1e-6f);
    CHECK(rotated.indices == std::vector<uint32_t>{0, 1, 2});
}
