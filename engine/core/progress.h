#pragma once
// Progress of long reads and writes, for whoever shows it (the CLI's line on
// a terminal, tools/isoscope/progress.h). A function that takes a Progress
// calls it with done = 0 when the work starts, as it advances (at least every
// kProgressStepBytes), and with done == total once it is finished; after an
// error it stops calling. An empty Progress is never called.
//
//     RawOptions options;
//     options.progress = [](const ProgressStep& step) { std::printf("%llu%%\n", step.done * 100 / step.total); };
//     Volume volume = readVolumeFile("scan.nii.gz", options);
#include <cstdint>
#include <functional>
#include <string_view>

namespace isoscope {

struct ProgressStep {
    std::string_view what;          // "reading 'scan.nii'", "writing 'surface.ply'", "reading TIFF pages"
    uint64_t done = 0, total = 0;   // bytes, or, where `items` names them, items
    std::string_view items = {};    // what done and total count ("pages", "slices", "lines"); empty: bytes
    uint64_t bytesDone = 0;         // with items: the bytes read or written so far, for a rate
};

using Progress = std::function<void(const ProgressStep&)>;

// Reads and writes go in pieces of this size, each reported: small enough
// for a line that moves, large enough that reporting costs nothing.
constexpr uint64_t kProgressStepBytes = uint64_t(8) << 20;

// For loops that count bytes: nothing when progress is empty.
inline void reportBytes(const Progress& progress, std::string_view what, uint64_t done, uint64_t total)
{
    if (progress)
        progress(ProgressStep{what, done, total});
}

} // namespace isoscope
