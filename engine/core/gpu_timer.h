#pragma once
// GPU timestamps around named scopes of a command buffer, read back as
// milliseconds once the submission has finished. Benchmarks and the `stats`
// JSON report these, never CPU wall-clock time around a submit.
#include <string>
#include <utility>
#include <vector>

#include <volk.h>

namespace isoscope {

class Context;

class GpuTimer {
public:
    GpuTimer(Context& context, uint32_t maxScopes = 64);
    // For a queue whose family has `validBits` timestamp bits; `hostReset`:
    // the queries are reset from the host when reset() is recorded (a
    // transfer-only queue cannot reset them in a command buffer; needs the
    // hostQueryReset feature, and the last recording's results read).
    GpuTimer(Context& context, uint32_t maxScopes, uint32_t validBits, bool hostReset);
    ~GpuTimer();
    GpuTimer(const GpuTimer&) = delete;
    GpuTimer& operator=(const GpuTimer&) = delete;

    // Starts a new set of scopes in `cmd` (resets the queries).
    void reset(VkCommandBuffer cmd);
    uint32_t begin(VkCommandBuffer cmd, std::string name);
    void end(VkCommandBuffer cmd, uint32_t scope);

    // Milliseconds per scope, in the order they began; waits for the results.
    std::vector<std::pair<std::string, double>> read();
    // The first scope's begin and end as milliseconds of the device's
    // timestamp clock (one clock for every queue of the device), read by the
    // last read(); {0, 0} before.
    std::pair<double, double> firstScopeSpan() const { return firstSpan_; }

private:
    Context& context_;
    VkQueryPool pool_ = VK_NULL_HANDLE;
    uint32_t maxScopes_;
    std::vector<std::string> names_;
    uint32_t validBits_ = 0;
    bool hostReset_ = false;
    std::pair<double, double> firstSpan_{0.0, 0.0};
};

// Times what is recorded between its construction and destruction as one
// scope of `timer`, or nothing when `timer` is null (a pass recorded without
// timing): the extractors wrap each pass in one.
class GpuTimerScope {
public:
    GpuTimerScope(VkCommandBuffer cmd, GpuTimer* timer, const char* name) : cmd_(cmd), timer_(timer)
    {
        if (timer_)
            id_ = timer_->begin(cmd_, name);
    }
    ~GpuTimerScope()
    {
        if (timer_)
            timer_->end(cmd_, id_);
    }
    GpuTimerScope(const GpuTimerScope&) = delete;
    GpuTimerScope& operator=(const GpuTimerScope&) = delete;

private:
    VkCommandBuffer cmd_;
    GpuTimer* timer_;
    uint32_t id_ = 0;
};

} // namespace isoscope
