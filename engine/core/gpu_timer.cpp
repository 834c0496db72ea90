#include "core/gpu_timer.h"

#include "core/context.h"
#include "core/vk_check.h"

namespace isoscope {

GpuTimer::GpuTimer(Context& context, uint32_t maxScopes)
    : GpuTimer(context, maxScopes, context.info().timestampValidBits, false)
{
}

GpuTimer::GpuTimer(Context& context, uint32_t maxScopes, uint32_t validBits, bool hostReset)
    : context_(context), maxScopes_(maxScopes), validBits_(validBits), hostReset_(hostReset)
{
    if (validBits == 0)
        fail("the device's queue has no timestamps (timestampValidBits = 0): GPU timing is unavailable on " +
             context.info().name);
    if (hostReset && !context.info().features.hostQueryReset)
        fail("timing a transfer queue needs hostQueryReset, which " + context.info().name + " lacks (engine bug: "
             "time it only where the feature is enabled)");
    VkQueryPoolCreateInfo createInfo{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    createInfo.queryType = VK_QUERY_TYPE_TIMESTAMP;
    createInfo.queryCount = 2 * maxScopes;
    VK_CHECK(vkCreateQueryPool(context.device(), &createInfo, nullptr, &pool_));
}

GpuTimer::~GpuTimer() { vkDestroyQueryPool(context_.device(), pool_, nullptr); }

void GpuTimer::reset(VkCommandBuffer cmd)
{
    if (hostReset_)
        vkResetQueryPool(context_.device(), pool_, 0, 2 * maxScopes_);
    else
        vkCmdResetQueryPool(cmd, pool_, 0, 2 * maxScopes_);
    names_.clear();
}

uint32_t GpuTimer::begin(VkCommandBuffer cmd, std::string name)
{
    if (names_.size() >= maxScopes_)
        fail("more than " + std::to_string(maxScopes_) + " timed scopes in one command buffer (engine bug)");
    uint32_t scope = uint32_t(names_.size());
    names_.push_back(std::move(name));
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool_, 2 * scope);
    return scope;
}

void GpuTimer::end(VkCommandBuffer cmd, uint32_t scope)
{
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool_, 2 * scope + 1);
}

std::vector<std::pair<std::string, double>> GpuTimer::read()
{
    std::vector<std::pair<std::string, double>> result;
    if (names_.empty())
        return result;
    std::vector<uint64_t> ticks(2 * names_.size());
    VK_CHECK(vkGetQueryPoolResults(context_.device(), pool_, 0, uint32_t(ticks.size()), ticks.size() * sizeof(uint64_t),
                                   ticks.data(), sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    uint32_t bits = validBits_;
    uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    double msPerTick = double(context_.info().timestampPeriodNs) * 1e-6;
    for (size_t i = 0; i < names_.size(); ++i) {
        uint64_t elapsed = ((ticks[2 * i + 1] & mask) - (ticks[2 * i] & mask)) & mask;
        result.emplace_back(names_[i], double(elapsed) * msPerTick);
    }
    firstSpan_ = {double(ticks[0] & mask) * msPerTick, double(ticks[1] & mask) * msPerTick};
    return result;
}

} // namespace isoscope
