#pragma once
// Edits of a transfer function's control points (isoscope::api::TransferPoints),
// shared by the editor's mouse handling (tf_editor.h) and --script. Each
// keeps its list sorted by value and at least one point long, as
// VolumeRendering::setTransferFunction requires.
#include <array>
#include <cstddef>

#include <isoscope/raycast.h>

namespace viewer {

using TransferPoints = isoscope::api::TransferPoints;

// Colour and opacity at `value`: linear between the points, clamped to the end points.
std::array<double, 3> colorAt(const TransferPoints& points, double value);
double opacityAt(const TransferPoints& points, double value);

// Sets the point at exactly `value`, or adds one there; returns its index.
size_t setOpacityPoint(TransferPoints& points, double value, double alpha);
size_t setColorPoint(TransferPoints& points, double value, const std::array<double, 3>& rgb);

// Moves point i to `value`, kept between its neighbours (so the order stays);
// opacity also to `alpha` (clamped to 0..1).
void moveOpacityPoint(TransferPoints& points, size_t i, double value, double alpha);
void moveColorPoint(TransferPoints& points, size_t i, double value);

// Removes point i; false (and nothing removed) for its list's last point.
bool removeOpacityPoint(TransferPoints& points, size_t i);
bool removeColorPoint(TransferPoints& points, size_t i);

} // namespace viewer
