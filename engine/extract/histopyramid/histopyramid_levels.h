#pragma once
// The shape of the HistoPyramid method's pyramid (shaders/extract/
// histopyramid/histopyramid_common.glsl): each level's size in nodes and
// where its entries start in the one pyramid buffer. Pure arithmetic, so it
// is tested on the CPU.
#include <array>
#include <cstdint>
#include <vector>

namespace isoscope {

struct HistoPyramidLevel {
    std::array<uint32_t, 3> dims; // nodes along each axis; level 0 is the grid of points
    uint64_t firstWord = 0;       // where its entries start (levels below the top)
    uint64_t words = 0;           // how many words its entries take
};

struct HistoPyramidShape {
    std::vector<HistoPyramidLevel> levels; // 0 .. topLevel; the top is one node, its sums not stored
    uint32_t topLevel = 0;
    uint64_t totalWords = 0;
};

// Level l + 1 halves level l, rounding up, until one node is left; at least
// three levels sit below the top, as the passes expect (base.comp writes
// levels 0 to 2, base_runs.comp 0 and 1, reduce.comp or reduce_words.comp the rest). A level's entries are the eight
// children of each node one level up: a byte each at level 0, 16 bits at
// level 1, 32 at levels 2-4, 64 above.
HistoPyramidShape histoPyramidShape(std::array<uint32_t, 3> dims);

// Whether the base pass walks columns (base.comp, levels 0 to 2) or runs one
// invocation per run of 16x2x2 points (base_runs.comp, levels 0 and 1, the
// reduce passes from level 2): columns from 2^23 points up, where the H100
// measured them faster (docs/BENCHMARKS.md: the engine CT, 2^23 points,
// 1-2 µs faster; the fMRI volume, 2^18, 2 µs slower).
bool histoPyramidBaseInColumns(const HistoPyramidShape& shape);

// The runs pass's invocations (base_runs.comp): level 1's entries (2 nodes
// of level 2 along each axis) in runs of eight nodes along x.
uint64_t histoPyramidBaseRuns(const HistoPyramidShape& shape);

// The columns pass (base.comp): each workgroup walks a column of
// `histoPyramidBaseColumn` layers of level-2 nodes up z, 32 runs of four
// level-2 nodes along x wide (128 nodes of one or more rows); the column is 8
// layers where that leaves at least 4096 workgroups, else fewer, down to 1,
// so that small volumes keep as many workgroups as they can.
uint32_t histoPyramidBaseColumn(const HistoPyramidShape& shape);
uint64_t histoPyramidBaseGroups(const HistoPyramidShape& shape, uint32_t column);

} // namespace isoscope
