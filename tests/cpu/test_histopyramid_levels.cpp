// The HistoPyramid's shape (extract/histopyramid/histopyramid_levels.h):
// each level halves the one below, rounding up, to a single top node with at
// least three levels below it, and each level's entries (eight per node one
// level up, in its width) start on 16 bytes after the level below.
#include <catch2/catch.hpp>

#include "extract/histopyramid/histopyramid_levels.h"

using namespace isoscope;

TEST_CASE("the HistoPyramid's levels halve the grid to one node and pack their entries", "[histopyramid]")
{
    for (std::array<uint32_t, 3> dims : {std::array<uint32_t, 3>{37, 37, 37}, {1024, 1024, 1024}, {256, 256, 128},
                                         {2, 2, 2}, {65, 3, 2}, {128, 96, 24}}) {
        INFO(dims[0] << "x" << dims[1] << "x" << dims[2]);
        HistoPyramidShape shape = histoPyramidShape(dims);
        REQUIRE(shape.levels.size() == shape.topLevel + 1);
        REQUIRE(shape.topLevel >= 3);
        REQUIRE(shape.levels[0].dims == dims);
        REQUIRE(shape.levels[shape.topLevel].dims == std::array<uint32_t, 3>{1, 1, 1});
        for (uint32_t l = 1; l <= shape.topLevel; ++l)
            for (int a = 0; a < 3; ++a)
                REQUIRE(shape.levels[l].dims[a] == (shape.levels[l - 1].dims[a] + 1) / 2);
        // No level above the top's three is a single node already: the top is as low as it can be.
        if (shape.topLevel > 3)
            REQUIRE(shape.levels[shape.topLevel - 1].dims != std::array<uint32_t, 3>{1, 1, 1});
        uint64_t word = 0;
        for (uint32_t l = 0; l < shape.topLevel; ++l) {
            const std::array<uint32_t, 3>& up = shape.levels[l + 1].dims;
            uint64_t entries = 8 * uint64_t(up[0]) * up[1] * up[2];
            uint64_t bytesPerEntry = l == 0 ? 1 : l == 1 ? 2 : l <= 4 ? 4 : 8;
            REQUIRE(shape.levels[l].words * 4 == entries * bytesPerEntry);
            REQUIRE(shape.levels[l].firstWord == word);
            REQUIRE(shape.levels[l].firstWord % 4 == 0);
            word += (shape.levels[l].words + 3) / 4 * 4;
        }
        REQUIRE(shape.totalWords == word);
    }
    // 1024³ points: a byte a point at level 0, and the levels above add a third.
    HistoPyramidShape big = histoPyramidShape({1024, 1024, 1024});
    REQUIRE(big.topLevel == 10);
    REQUIRE(big.levels[0].words * 4 == (uint64_t(1) << 30));
    REQUIRE(big.totalWords * 4 < (uint64_t(1) << 30) * 4 / 3);
}

TEST_CASE("the HistoPyramid base pass walks columns of level-2 layers where that leaves enough workgroups",
          "[histopyramid]")
{
    // 1024³: 512 workgroups a layer of 256; 8 layers a column leave 16384.
    HistoPyramidShape big = histoPyramidShape({1024, 1024, 1024});
    REQUIRE(histoPyramidBaseColumn(big) == 8);
    REQUIRE(histoPyramidBaseGroups(big, 8) == 16384);
    // 512³: 128 a layer of 128; 8 layers would leave 2048.
    HistoPyramidShape half = histoPyramidShape({512, 512, 512});
    REQUIRE(histoPyramidBaseColumn(half) == 4);
    REQUIRE(histoPyramidBaseGroups(half, 4) == 4096);
    // Small volumes keep one layer a column: every workgroup they can have.
    for (std::array<uint32_t, 3> dims : {std::array<uint32_t, 3>{256, 256, 256}, {256, 256, 128}, {128, 96, 24},
                                         {33, 41, 25}, {2, 2, 2}}) {
        HistoPyramidShape shape = histoPyramidShape(dims);
        REQUIRE(histoPyramidBaseColumn(shape) == 1);
        // 32 runs of four level-2 nodes a workgroup, one workgroup a layer at least.
        const std::array<uint32_t, 3>& d2 = shape.levels[2].dims;
        uint64_t runs = (uint64_t(d2[0]) + 3) / 4 * d2[1];
        REQUIRE(histoPyramidBaseGroups(shape, 1) == (runs + 31) / 32 * d2[2]);
    }
}

TEST_CASE("the HistoPyramid base pass walks columns from 2^23 points up, where the H100 measured them faster",
          "[histopyramid]")
{
    for (std::array<uint32_t, 3> dims : {std::array<uint32_t, 3>{1024, 1024, 1024}, {512, 512, 512},
                                         {256, 256, 256}, {256, 256, 128}})
        REQUIRE(histoPyramidBaseInColumns(histoPyramidShape(dims)));
    for (std::array<uint32_t, 3> dims : {std::array<uint32_t, 3>{256, 256, 127}, {128, 96, 24}, {33, 41, 25},
                                         {2, 2, 2}})
        REQUIRE_FALSE(histoPyramidBaseInColumns(histoPyramidShape(dims)));
}
