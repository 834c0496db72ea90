#include "extract/histopyramid/histopyramid_levels.h"

namespace isoscope {

HistoPyramidShape histoPyramidShape(std::array<uint32_t, 3> dims)
{
    HistoPyramidShape shape;
    shape.levels.push_back({dims});
    while (shape.levels.back().dims != std::array<uint32_t, 3>{1, 1, 1} || shape.levels.size() < 4) {
        std::array<uint32_t, 3> up{};
        for (int a = 0; a < 3; ++a)
            up[a] = (shape.levels.back().dims[a] + 1) / 2;
        shape.levels.push_back({up});
    }
    shape.topLevel = uint32_t(shape.levels.size() - 1);
    uint64_t word = 0;
    for (uint32_t l = 0; l < shape.topLevel; ++l) {
        const std::array<uint32_t, 3>& d = shape.levels[l + 1].dims;
        uint64_t entries = 8 * uint64_t(d[0]) * d[1] * d[2];
        uint64_t words = l == 0 ? entries / 4 : l == 1 ? entries / 2 : l <= 4 ? entries : 2 * entries;
        shape.levels[l].firstWord = word;
        shape.levels[l].words = words;
        word += (words + 3) / 4 * 4; // each level starts on 16 bytes
    }
    shape.totalWords = word;
    return shape;
}

bool histoPyramidBaseInColumns(const HistoPyramidShape& shape)
{
    const std::array<uint32_t, 3>& d = shape.levels[0].dims;
    return uint64_t(d[0]) * d[1] * d[2] >= (uint64_t(1) << 23);
}

uint64_t histoPyramidBaseRuns(const HistoPyramidShape& shape)
{
    const std::array<uint32_t, 3>& d2 = shape.levels[2].dims;
    return (2 * uint64_t(d2[0]) + 7) / 8 * 4 * uint64_t(d2[1]) * d2[2];
}

uint64_t histoPyramidBaseGroups(const HistoPyramidShape& shape, uint32_t column)
{
    const std::array<uint32_t, 3>& d2 = shape.levels[2].dims;
    uint64_t layerRuns = (uint64_t(d2[0]) + 3) / 4 * d2[1]; // base.comp's RUN_PARENTS and HALF
    return (layerRuns + 31) / 32 * ((uint64_t(d2[2]) + column - 1) / column);
}

uint32_t histoPyramidBaseColumn(const HistoPyramidShape& shape)
{
    uint32_t column = 8;
    while (column > 1 && histoPyramidBaseGroups(shape, column) < 4096)
        column /= 2;
    return column;
}

} // namespace isoscope
