// The host thread limit streamed reads hold (core/parallel_for.h; parallelFor
// itself: test_volume_sources.cpp).
#include <catch2/catch.hpp>

#include <mutex>
#include <set>
#include <chrono>
#include <thread>
#include <vector>

#include "core/parallel_for.h"

using namespace isoscope;

TEST_CASE("a host thread limit holds on its own thread, nests, and ends with its scope", "[stream]")
{
    unsigned cores = hostThreads();
    {
        HostThreadLimit limit(2);
        CHECK(hostThreads() == std::min(cores, 2u));
        {
            HostThreadLimit none(0); // at least one
            CHECK(hostThreads() == 1);
        }
        CHECK(hostThreads() == std::min(cores, 2u));
        unsigned elsewhere = 0;
        std::thread([&] { elsewhere = hostThreads(); }).join();
        CHECK(elsewhere == cores); // another thread's count is its own
        // parallelFor with hostThreads() under the limit uses at most that many threads.
        std::mutex mutex;
        std::set<std::thread::id> ids;
        parallelFor(64, hostThreads(), [&](uint64_t) {
            std::lock_guard lock(mutex);
            ids.insert(std::this_thread::get_id());
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        });
        CHECK(ids.size() <= 2);
    }
    CHECK(hostThreads() == cores);
}
