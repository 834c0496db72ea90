#pragma once
// A volume requantized to an integer type: the value range [min, max] maps
// linearly onto the type's whole range (uint8 0..255, uint16 0..65535, int16
// -32768..32767), rounded. Benchmarks use it to run float fields as the 8-
// and 16-bit volumes that scanners produce (the CUDA sample's uint8 Cayley,
// a CT's int16, say).
#include "volume/volume.h"

namespace isoscope {

// `type` is UInt8, UInt16 or Int16; anything else fails.
Volume quantize(const Volume& volume, ScalarType type);
Volume quantizeToUInt8(const Volume& volume);

// Where `iso` lands on that scale of `type` (not rounded).
double quantizedIsovalue(const Volume& original, double iso, ScalarType type = ScalarType::UInt8);

} // namespace isoscope
