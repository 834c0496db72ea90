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
// volume over 2^40 bytes. Cost: one evaluation per sample, planes spread over every core.
Volume makeSyntheticVolume(std::string_view spec);

// The grid of a spec (dims, origin, spacing, type float32) without samples,
// for methods that evaluate the field on the GPU instead of reading it.
Volume makeSyntheticGrid(std::string_view spec);

// A field by name (nullptr for an unknown one) and the coordinate of sample
// i of n along an axis, -1 + 2i/(n-1): what makeSyntheticVolume evaluates.
using SyntheticFunction = double (*)(double x, double y, double z);
SyntheticFunction syntheticFunction(std::string_view name);
double syntheticCoordinate(uint32_t i, uint32_t n);
// A field value as a uint8 sample (streamed synthetic volumes of type
// uint8): [-1, 1] onto 0..255, round(127.5 (v + 1)), clamped.
uint8_t syntheticByte(double value);

// One row of a field as a streamed source stores it: samples at x = xs[i]
// (i < count) and (y, z), as float32 (the field, to float) or uint8
// (syntheticByte), written to `out`. The values of syntheticFunction and
// syntheticByte, sample for sample, with the field inlined in the loop:
// what streaming generates on every core, fast enough to feed the device.
using SyntheticRowWriter = void (*)(const double* xs, size_t count, double y, double z, ScalarType type,
                                    std::byte* out);
// nullptr for an unknown name.
SyntheticRowWriter syntheticRowWriter(std::string_view name);
// The same rows where the caller has checked once that its xs ascend (no
// NaN), as a grid's coordinates do: the uint8 sphere's row skips its own
// per-row check. Not for xs that may be unsorted.
SyntheticRowWriter syntheticRowWriterForAscendingXs(std::string_view name);

// The value makeSyntheticVolume stores at the point (x, y, z), before the
// conversion to float; tests and CPU references use it. Throws Error for an
// unknown name.
double evaluateSyntheticField(std::string_view name, double x, double y, double z);

} // namespace isoscope
