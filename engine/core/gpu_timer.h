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
    ~GpuTimer();
    GpuTimer(const GpuTimer&) = delete;
    GpuTimer& operator=(const GpuTimer&) = delete;

    // Starts a new set of scopes in `cmd` (resets the queries).
    void reset(VkCommandBuffer cmd);
    uint32_t begin(VkCommandBuffer cmd, std::string name);
    void end(VkCommandBuffer cmd, uint32_t scope);

    // Milliseconds per scope, in the order they began; waits for the results.
    std::vector<std::pair<std::string, double>> read();

private:
    Context& context_;
    VkQueryPool pool_ = VK_NULL_HANDLE;
    uint32_t maxScopes_;
    std::vector<std::string> names_;
};

} // namespace isoscope
