#pragma once
// How a view meets the volume's memory (the rotation paper's section 3):
// the image's x axis has the smallest stride, so one invocation per ray is
// fastest when a subgroup's lanes lie along x on the screen, and cannot be
// when the rays run along x (the "unfavourable" views, which a quarter turn
// about y makes favourable).
#include <array>
#include <cstdint>

#include <glm/glm.hpp>

#include "raycast/ray_setup.h"

namespace isoscope {

// The workgroup shapes of the per-ray mappings (dvr_march.comp), built up front.
enum class TileShape { Square, Wide, Tall };
constexpr std::array<TileShape, 3> kTileShapes{TileShape::Square, TileShape::Wide, TileShape::Tall};
// Pixels a workgroup before fitTile: 8 × 8, 16 × 4, 4 × 16.
std::array<uint32_t, 2> tileShapeSize(TileShape shape);
const char* tileShapeName(TileShape shape);

// The axis (0 x, 1 y, 2 z) an index-space direction runs most along.
int facingAxis(glm::vec3 indexDirection);

// Quarter turns about y that make a view favourable: 1 where it faces x, else 0.
int favourableTurns(glm::vec3 indexDirection);

// The shape whose lanes run along the image's x axis on the screen (or its
// y axis when x faces the viewer), for a camera whose screen axes in the
// image's index space are `right` and `down`, and whose rays run along
// `forward` (stored space: after the turns).
TileShape chooseTileShape(glm::vec3 right, glm::vec3 down, glm::vec3 forward);

} // namespace isoscope
