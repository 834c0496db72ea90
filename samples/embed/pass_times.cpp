#include "pass_times.h"

#include <algorithm>
#include <cstdio>

namespace embed {

namespace {

double median(std::vector<double> values)
{
    if (values.empty())
        return 0.0;
    std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
    return values[values.size() / 2];
}

} // namespace

void PassTimes::collect(isoscope::api::Renderer& renderer, uint64_t frame)
{
    if (frame < warmup_)
        return;
    double total = 0.0;
    for (const isoscope::api::PassTime& pass : renderer.passTimes(frame)) {
        if (!samples_.count(pass.pass))
            order_.push_back(pass.pass);
        samples_[pass.pass].push_back(pass.ms);
        total += pass.ms;
    }
    totals_.push_back(total);
}

void PassTimes::print() const
{
    std::printf("{\"frames_timed\": %zu, \"gpu_ms_median\": {", totals_.size());
    for (const std::string& pass : order_)
        std::printf("\"%s\": %.4f, ", pass.c_str(), median(samples_.at(pass)));
    std::printf("\"isoscope total\": %.4f}}\n", median(totals_));
}

} // namespace embed
