// The slab weld's plane map (extract/stream/edge_code_map.h) against std::map.
#include <catch2/catch.hpp>

#include <map>
#include <random>

#include "core/parallel_for.h"
#include "extract/stream/edge_code_map.h"

using namespace isoscope;

TEST_CASE("the edge code map finds every code inserted, its first number, and nothing else", "[stream]")
{
    std::mt19937 random(7);
    EdgeCodeMap map;
    for (size_t count : {0, 1, 5, 1000, 200000}) {
        map.reset(count);
        std::map<uint32_t, uint32_t> expected;
        for (size_t i = 0; i < count; ++i) {
            // Codes of a plane's edges: runs of neighbours and scattered ones, below 2^31, some twice.
            uint32_t code = i % 3 ? uint32_t(i * 2) : uint32_t(random() & 0x7FFFFFFFu);
            uint32_t number = uint32_t(random());
            map.insert(code, number);
            expected.emplace(code, number); // keeps the first, as the map does
        }
        for (auto [code, number] : expected)
            REQUIRE(map.find(code) == number);
        for (int i = 0; i < 1000; ++i) {
            uint32_t code = uint32_t(random() & 0x7FFFFFFFu);
            CHECK(map.find(code) == (expected.count(code) ? expected[code] : EdgeCodeMap::kMissing));
        }
    }
    map.reset(4); // a smaller plane after a large one: emptied
    CHECK(map.find(2) == EdgeCodeMap::kMissing);
    EdgeCodeMap never;
    CHECK(never.find(0) == EdgeCodeMap::kMissing);
}

TEST_CASE("the edge code map filled from several threads at once holds each code's smallest number", "[stream]")
{
    // As the weld fills it: pieces of vertices on every core, some codes twice.
    std::mt19937 random(11);
    constexpr size_t count = 300000;
    std::vector<std::pair<uint32_t, uint32_t>> entries(count);
    std::map<uint32_t, uint32_t> expected;
    for (size_t i = 0; i < count; ++i) {
        uint32_t code = i % 4 ? uint32_t(i * 2) : uint32_t(random() & 0xFFFFu); // the scattered ones repeat
        entries[i] = {code, uint32_t(random())};
        auto [at, added] = expected.emplace(entries[i]);
        if (!added)
            at->second = std::min(at->second, entries[i].second);
    }
    EdgeCodeMap map;
    map.reset(count);
    constexpr size_t piece = 4096;
    parallelFor((count + piece - 1) / piece, 4, [&](uint64_t p) {
        for (size_t i = p * piece; i < std::min(count, (p + 1) * piece); ++i)
            map.insertConcurrent(entries[i].first, entries[i].second);
    });
    for (auto [code, number] : expected)
        REQUIRE(map.find(code) == number);
    CHECK(map.find(0x7FFFFFF1u) == EdgeCodeMap::kMissing);
}
