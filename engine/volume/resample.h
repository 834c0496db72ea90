#pragma once
// A volume resampled onto another grid over the same box (origin and
// extent kept, spacing changed), by trilinear interpolation of its samples;
// integer types are rounded back. Benchmarks use it to bring the real volumes
// up to the sizes the raycasters are measured at (512³, 1024³).
#include <array>

#include "volume/volume.h"

namespace isoscope {

// Throws Error for a target of fewer than 2 samples on an axis.
Volume resampleTrilinear(const Volume& volume, std::array<uint32_t, 3> dims);

} // namespace isoscope
