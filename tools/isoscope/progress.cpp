#include "progress.h"

#include <cstdio>
#include <memory>
#include <string>

#include <unistd.h>

namespace isoscope::cli {

RawOptions::Progress terminalProgress(bool quiet)
{
    if (quiet || !isatty(STDERR_FILENO))
        return {};
    auto lastPercent = std::make_shared<int>(-1);
    return [lastPercent](std::string_view what, uint64_t done, uint64_t total) {
        int percent = total ? int(done * 100 / total) : 100;
        if (percent == *lastPercent && done != total)
            return;
        *lastPercent = percent;
        std::fprintf(stderr, "\risoscope: reading %.*s %llu/%llu (%d%%)", int(what.size()), what.data(),
                     (unsigned long long)done, (unsigned long long)total, percent);
        if (done == total) {
            std::fputc('\n', stderr);
            *lastPercent = -1;
        }
        std::fflush(stderr);
    };
}

} // namespace isoscope::cli
