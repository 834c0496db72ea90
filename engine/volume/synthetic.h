#pragma once
// Analytic test volumes, generated instead of read: `NAME:N` (N³ samples) or
// `NAME:NXxNYxNZ`, e.g. `cayley:64`, `torus:128x128x64`.
//
// Every field is sampled on [-1,1]³ at x_i = -1 + 2i/(N-1) (origin -1,
// spacing 2/(N-1) per axis), computed in double and stored as float32, so a
// CPU reference can recompute any sample exactly. The fields:
//   cayley          1 - 16xyz - 4(x²+y²+z²)           Cayley cubic; its four
//                   singular points make marching cubes ambiguous (iso -0.012)
//   sphere          sqrt(x²+y²+z²)                     distance; iso = radius
//   torus           (sqrt(x²+y²) - 0.55)² + z²         iso = tube radius²
//   gyroid          sin6x·cos6y + sin6y·cos6z + sin6z·cos6x   (iso 0)
//   marschner-lobb  Marschner & Lobb 1994 test signal, α = 0.25, f_M = 6
//                   (iso 0.5); high frequencies that expose filtering errors
#include <string>
#include <string_view>
#include <vector>

#include "volume/volume.h"

namespace isoscope {

// The field names, for help texts.
std::vector<std::string> syntheticFieldNames();

// Whether the text has the form of a spec (NAME:REST, NAME two or more
// letters, digits, '-' or '_', REST without path characters). It says nothing
// about validity: makeSyntheticVolume reports an unknown name or bad sizes.
// A drive letter (`C:\data`) or a path (`d:x/a.raw`) is not a spec.
bool isSyntheticSpec(std::string_view text);

// Generates the field. Throws Error naming the spec, the valid names and the
// valid forms for an unknown name, a dimension below 2, garbage sizes, or a
// volume over 2^40 bytes. Cost: one evaluation per sample, single-threaded.
Volume makeSyntheticVolume(std::string_view spec);

// The grid of a spec (dims, origin, spacing, type float32) without samples,
// for methods that evaluate the field on the GPU instead of reading it.
Volume makeSyntheticGrid(std::string_view spec);

// The value makeSyntheticVolume stores at the point (x, y, z), before the
// conversion to float; tests and CPU references use it. Throws Error for an
// unknown name.
double evaluateSyntheticField(std::string_view name, double x, double y, double z);

} // namespace isoscope
