// The host thread limit streamed reads hold and the thread pool their pieces'
// reads use (core/parallel_for.h; parallelFor itself: test_volume_sources.cpp).
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
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

TEST_CASE("parallelFor on a thread pool runs every item once on the pool's workers, rethrows, and nests",
          "[stream]")
{
    ThreadPool pool(3);
    REQUIRE(pool.workers() == 3);
    std::set<std::thread::id> workers;
    {
        UseThreadPool use(pool);
        for (int round = 0; round < 20; ++round) { // calls after calls on the same workers
            std::vector<std::atomic<int>> runs(257);
            std::mutex mutex;
            std::set<std::thread::id> ids;
            parallelFor(runs.size(), 8, [&](uint64_t i) {
                runs[i]++;
                std::lock_guard lock(mutex);
                ids.insert(std::this_thread::get_id());
            });
            for (auto& r : runs)
                REQUIRE(r == 1);
            CHECK(ids.size() <= 4); // the caller and at most the pool's three workers
            ids.erase(std::this_thread::get_id());
            workers.insert(ids.begin(), ids.end());
        }
        CHECK(workers.size() <= 3); // never a thread of its own
        CHECK_THROWS_WITH(parallelFor(100, 4,
                                      [](uint64_t i) {
                                          if (i == 37)
                                              throw std::runtime_error("item 37");
                                      }),
                          "item 37");
        // A body's own parallelFor (on a worker, which has no pool) starts threads of its own.
        std::atomic<int> inner{0};
        parallelFor(4, 4, [&](uint64_t) { parallelFor(10, 3, [&](uint64_t) { inner++; }); });
        CHECK(inner == 40);
    }
    // Out of the scope: threads of their own again.
    std::mutex mutex;
    std::set<std::thread::id> ids;
    parallelFor(64, 4, [&](uint64_t) {
        std::lock_guard lock(mutex);
        ids.insert(std::this_thread::get_id());
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    });
    for (std::thread::id id : ids)
        CHECK(workers.count(id) == 0);
}
