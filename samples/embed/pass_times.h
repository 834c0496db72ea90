#pragma once
// isoscope's GPU milliseconds per pass, gathered frame after frame as each
// frame's slot comes round (its fence waited, so reading its timestamps never
// stalls), and their medians for benchmarks.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <isoscope/renderer.h>

namespace embed {

class PassTimes {
public:
    explicit PassTimes(uint64_t warmupFrames) : warmup_(warmupFrames) {}
    // Frame `frame` has finished on the GPU.
    void collect(isoscope::api::Renderer& renderer, uint64_t frame);
    // One JSON line: frames timed, the median of each pass and of their sum.
    void print() const;

private:
    uint64_t warmup_;
    std::vector<std::string> order_;                    // passes in execution order
    std::map<std::string, std::vector<double>> samples_; // pass -> ms per frame
    std::vector<double> totals_;
};

} // namespace embed
