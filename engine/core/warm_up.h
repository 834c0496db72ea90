#pragma once
// Untimed runs before a benchmark's timed ones, by count and by time.
//
// GPUs lower their clocks when idle and raise them only after some load: the
// H100 here idles at 345 MHz, runs at 1980 MHz, and after the seconds a
// benchmark spends making and uploading its input it took about a second of
// work to get there (nvidia-smi, docs/BENCHMARKS.md). Five untimed runs of a
// 4 ms scan were 20 ms: the timed runs then measured the clock governor, and
// a 4 GiB scan came out 4 or 15 ms depending on the process.
#include <chrono>
#include <cstdint>

#include "core/parameter_check.h"

namespace isoscope {

// The longest least warm-up accepted: ten minutes. More is a typo, and a
// NaN or infinite time would never be reached (a benchmark that hangs).
constexpr double kMaxWarmUpMs = 600000.0;

// Calls `run` (which submits and waits) at least `minRuns` times and until
// `minMs` of wall-clock time have passed. Throws Error, before any run,
// unless minMs is finite and from 0 to kMaxWarmUpMs.
template <typename Run>
void warmUp(uint32_t minRuns, double minMs, Run&& run)
{
    checkParameter("warm-up milliseconds", minMs, 0.0, kMaxWarmUpMs);
    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now();
    for (uint32_t done = 0;; ++done) {
        double elapsedMs = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        if (done >= minRuns && elapsedMs >= minMs)
            return;
        run();
    }
}

// The default least warm-up of the benchmarks.
constexpr double kWarmUpMs = 1000.0;

} // namespace isoscope
