#pragma once
// A frame's GPU time as calibrations and benchmarks take it: the graph run
// `warmup` times untimed, then `repeat` times, the median of what `frameMs`
// reads from each run's pass timings. Throws Error (with `noTimestamps`)
// where the queue has no timestamps.
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace isoscope {

class RenderGraph;

using PassTimings = std::vector<std::pair<std::string, double>>;

double medianFrameMs(RenderGraph& graph, int warmup, int repeat, const std::function<double(const PassTimings&)>& frameMs,
                     const std::string& noTimestamps);

} // namespace isoscope
