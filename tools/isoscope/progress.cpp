#include "progress.h"

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include <unistd.h>

#include "core/memory.h"

namespace isoscope::cli {

namespace {

using Clock = std::chrono::steady_clock;

// There is one stderr: whether a line on it awaits its end is one fact.
bool lineOpen = false;

struct LineState {
    int lastPercent = -1;
    Clock::time_point start = Clock::now();
};

std::string amount(const ProgressStep& step)
{
    if (step.items.empty())
        return formatBytes(step.done) + "/" + formatBytes(step.total);
    return std::to_string(step.done) + "/" + std::to_string(step.total) + " " + std::string(step.items);
}

} // namespace

Progress terminalProgress(bool quiet)
{
    if (quiet || !isatty(STDERR_FILENO))
        return {};
    auto state = std::make_shared<LineState>();
    return [state](const ProgressStep& step) {
        if (step.done == 0)
            state->start = Clock::now(); // a new piece of work
        int percent = step.total ? int(step.done * 100 / step.total) : 100;
        if (percent == state->lastPercent && step.done != step.total)
            return;
        state->lastPercent = percent;
        std::string line = "isoscope: " + std::string(step.what) + " " + amount(step) + " (" + std::to_string(percent) + "%)";
        uint64_t bytes = step.items.empty() ? step.done : step.bytesDone;
        double seconds = std::chrono::duration<double>(Clock::now() - state->start).count();
        if (step.done > 0 && seconds > 0.0)
            line += ", " + formatBytes(uint64_t(double(bytes) / seconds)) + "/s";
        if (step.done > 0 && step.done < step.total && seconds > 1.0) {
            char left[32];
            std::snprintf(left, sizeof left, ", %.0f s left", seconds * double(step.total - step.done) / double(step.done));
            line += left;
        }
        // \r and "erase to the end of the line": the line is redrawn in place.
        std::fprintf(stderr, "\r%s\033[K", line.c_str());
        lineOpen = step.done != step.total;
        if (!lineOpen) {
            std::fputc('\n', stderr);
            state->lastPercent = -1;
        }
        std::fflush(stderr);
    };
}

void endProgressLine()
{
    if (lineOpen)
        std::fputc('\n', stderr);
    lineOpen = false;
}

} // namespace isoscope::cli
