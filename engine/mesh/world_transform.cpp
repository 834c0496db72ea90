#include "mesh/world_transform.h"

#include <algorithm>

#include <glm/mat3x3.hpp>
#include <glm/geometric.hpp>
#include <glm/matrix.hpp>

namespace isoscope {

namespace {

// The affine map from the extraction frame to where `target` sends indices:
// position p has index (p - origin) / spacing, which target maps on.
struct FrameMap {
    glm::dmat3 linear{1.0};
    glm::dvec3 offset{0.0};
};

FrameMap fromExtractionFrame(const Volume& volume, const Affine& target)
{
    FrameMap map;
    for (int row = 0; row < 3; ++row) {
        map.offset[row] = target[row][3];
        for (int column = 0; column < 3; ++column) {
            double step = target[row][column] / volume.spacing[column];
            map.linear[column][row] = step; // glm is column-major
            map.offset[row] -= step * volume.origin[column];
        }
    }
    return map;
}

void apply(Mesh& mesh, const FrameMap& map)
{
    for (glm::vec3& position : mesh.positions)
        position = glm::vec3(map.linear * glm::dvec3(position) + map.offset);
    glm::dmat3 normalMap = glm::transpose(glm::inverse(map.linear));
    for (glm::vec3& normal : mesh.normals) {
        glm::dvec3 mapped = normalMap * glm::dvec3(normal);
        double length = glm::length(mapped);
        normal = length > 0.0 ? glm::vec3(mapped / length) : glm::vec3(0.0f);
    }
    if (glm::determinant(map.linear) < 0.0)
        for (size_t face = 0; face + mesh.faceSize <= mesh.indices.size(); face += mesh.faceSize)
            std::reverse(mesh.indices.begin() + std::ptrdiff_t(face),
                         mesh.indices.begin() + std::ptrdiff_t(face + mesh.faceSize));
}

} // namespace

void placeInWorld(Mesh& mesh, const Volume& volume)
{
    if (volume.indexToWorld)
        apply(mesh, fromExtractionFrame(volume, *volume.indexToWorld));
}

bool placeInWorldFlipsFaces(const Volume& volume)
{
    return volume.indexToWorld && glm::determinant(fromExtractionFrame(volume, *volume.indexToWorld).linear) < 0.0;
}

void toIndexSpace(Mesh& mesh, const Volume& volume)
{
    Affine identity{};
    for (int axis = 0; axis < 4; ++axis)
        identity[axis][axis] = 1.0;
    apply(mesh, fromExtractionFrame(volume, identity));
}

} // namespace isoscope
