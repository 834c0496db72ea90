// Benchmarks' warm-up (core/warm_up.h): at least the count of runs, and runs
// until the time has passed, whichever comes later.
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>
#include <vector>

#include "core/warm_up.h"

using namespace isoscope;

TEST_CASE("warm-up runs exactly the count when no time is asked for", "[warm-up]")
{
    uint32_t runs = 0;
    warmUp(7, 0.0, [&] { ++runs; });
    CHECK(runs == 7);
    runs = 0;
    warmUp(0, 0.0, [&] { ++runs; });
    CHECK(runs == 0);
}

TEST_CASE("warm-up runs past the count until the time has passed, and starts no run after it", "[warm-up]")
{
    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now();
    std::vector<double> startsMs; // when each run began
    warmUp(1, 30.0, [&] {
        startsMs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    });
    double elapsedMs = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    REQUIRE_FALSE(startsMs.empty());
    // It ran until the time had passed: a warm-up by count alone would stop
    // after the first 2 ms run.
    CHECK(elapsedMs >= 30.0);
    // And began no run long after that (5 ms for the time between the check
    // and the recording of a run's start on a busy machine).
    CHECK(startsMs.back() < 35.0);
}
