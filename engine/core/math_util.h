#pragma once
// Integer arithmetic every pass uses to size its dispatches and buffers.
#include <cstdint>

namespace isoscope {

constexpr uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
constexpr uint64_t alignUp(uint64_t value, uint64_t alignment) { return ceilDiv(value, alignment) * alignment; }

} // namespace isoscope
