#pragma once
// The host's clock for the engine's own statistics (streamed extraction's
// per-slab times, the ceilings it is measured against).
#include <chrono>

namespace isoscope {

using Clock = std::chrono::steady_clock;

// Milliseconds from `start` to now.
inline double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

} // namespace isoscope
