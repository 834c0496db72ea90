#include "dvr/dvr_view.h"

#include <cmath>

namespace isoscope {

std::array<uint32_t, 2> tileShapeSize(TileShape shape)
{
    switch (shape) {
    case TileShape::Wide: return {16, 4};
    case TileShape::Tall: return {4, 16};
    case TileShape::Square: break;
    }
    return {8, 8};
}

const char* tileShapeName(TileShape shape)
{
    switch (shape) {
    case TileShape::Wide: return "wide";
    case TileShape::Tall: return "tall";
    case TileShape::Square: break;
    }
    return "square";
}

int facingAxis(glm::vec3 d)
{
    glm::vec3 a = glm::abs(d);
    return a.x >= a.y && a.x >= a.z ? 0 : a.y >= a.z ? 1 : 2;
}

int favourableTurns(glm::vec3 indexDirection) { return facingAxis(indexDirection) == 0 ? 1 : 0; }

TileShape chooseTileShape(glm::vec3 right, glm::vec3 down, glm::vec3 forward)
{
    // The stride-1 axis, unless the rays run along it; then the next one.
    int axis = facingAxis(forward) == 0 ? 1 : 0;
    float across = std::fabs(glm::normalize(right)[axis]);
    float along = std::fabs(glm::normalize(down)[axis]);
    return across >= along ? TileShape::Wide : TileShape::Tall;
}

} // namespace isoscope
