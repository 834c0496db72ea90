#include "graph/frame_timing.h"

#include <algorithm>

#include "core/error.h"
#include "graph/render_graph.h"

namespace isoscope {

double medianFrameMs(RenderGraph& graph, int warmup, int repeat, const std::function<double(const PassTimings&)>& frameMs,
                     const std::string& noTimestamps)
{
    std::vector<double> samples;
    for (int run = 0; run < warmup + repeat; ++run) {
        graph.execute();
        PassTimings timings = graph.passTimings();
        if (timings.empty())
            fail(noTimestamps);
        if (run >= warmup)
            samples.push_back(frameMs(timings));
    }
    if (samples.empty())
        fail("a frame time needs at least one timed run (repeat " + std::to_string(repeat) + ")");
    std::sort(samples.begin(), samples.end());
    size_t n = samples.size();
    return n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
}

} // namespace isoscope
