#pragma once
// The Marching Cubes case table (case_table.h) as a device buffer, for every
// GPU extractor; shaders/common/case_table.glsl reads it. Uploaded from
// marchingCubesCases() itself, so the GPU cannot drift from the CPU reference.
//
// Layout: 8 bytes per case, 256 cases (2 KiB), as 16 nibbles from the low
// bits up: nibble 0 the triangle count, nibbles 1..15 the edges of up to
// five triangles (0xF unused). Half the bytes of one per byte: it counts in
// every extractor's auxiliary memory, a visible share on small volumes.
#include "core/memory.h"

namespace isoscope {

class Context;

inline constexpr uint32_t kCaseTableGpuBytesPerCase = 8;

// A device-local storage buffer holding the table (uploads and waits).
Buffer createCaseTableBuffer(Context& context);

} // namespace isoscope
