#pragma once
// The Marching Cubes case table (case_table.h) in a device buffer for the GPU
// extractors: per case one uvec4, x = triangle count, y = edges 0-7 and
// z = edges 8-14 of the triangle list as 4-bit fields, w unused.
#include "core/memory.h"

namespace isoscope {

class Context;

Buffer uploadCaseTable(Context& context);

} // namespace isoscope
