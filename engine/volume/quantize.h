#pragma once
// A volume requantized to 8 bits: the value range [min, max] maps linearly
// onto 0..255 (rounded). Benchmarks use it to run float fields as the 8-bit
// volumes that scanners produce (the CUDA sample's uint8 Cayley, say).
#include "volume/volume.h"

namespace isoscope {

Volume quantizeToUInt8(const Volume& volume);

// Where `iso` lands on that 0..255 scale (not rounded).
double quantizedIsovalue(const Volume& original, double iso);

} // namespace isoscope
