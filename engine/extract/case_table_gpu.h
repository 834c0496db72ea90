#pragma once
// The Marching Cubes case table (case_table.h) as a device buffer, for every
// GPU extractor; shaders/common/case_table.glsl reads it. Uploaded from
// marchingCubesCases() itself, so the GPU cannot drift from the CPU reference.
//
// Layout: 16 bytes per case, 256 cases (4 KiB): byte 0 the triangle count,
// bytes 1..15 the edges of up to five triangles (0xFF unused).
#include "core/memory.h"

namespace isoscope {

class Context;

inline constexpr uint32_t kCaseTableGpuBytesPerCase = 16;

// A device-local storage buffer holding the table (uploads and waits).
Buffer createCaseTableBuffer(Context& context);

} // namespace isoscope
