#include "core/fault_injection.h"

#include <atomic>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/error.h"
#include "core/parameter_check.h"

namespace isoscope {

namespace {

struct FaultPlan {
    bool active = false;
    FaultSite site = FaultSite::Allocate;
    uint64_t call = 0;
};

FaultPlan readPlan()
{
    const char* text = std::getenv("ISOSCOPE_INJECT_FAULT");
    if (!text || !*text)
        return {};
    std::string_view value(text);
    size_t colon = value.find(':');
    std::string_view name = value.substr(0, colon);
    FaultPlan plan;
    plan.active = true;
    bool known = true;
    if (name == "allocate")
        plan.site = FaultSite::Allocate;
    else if (name == "submit")
        plan.site = FaultSite::Submit;
    else if (name == "wait")
        plan.site = FaultSite::Wait;
    else
        known = false;
    if (!known || colon == std::string_view::npos ||
        !parseUnsignedInteger(value.substr(colon + 1), UINT64_MAX, plan.call) || plan.call == 0)
        fail("ISOSCOPE_INJECT_FAULT='" + std::string(value) +
             "': give allocate:N, submit:N or wait:N, N from 1 (the call to fail), or unset it");
    return plan;
}

} // namespace

VkResult injectedFault(FaultSite site)
{
    static const FaultPlan plan = readPlan();
    static std::atomic<uint64_t> calls[3];
    if (!plan.active)
        return VK_SUCCESS;
    uint64_t call = ++calls[int(site)];
    if (site != plan.site || call != plan.call)
        return VK_SUCCESS;
    return site == FaultSite::Allocate ? VK_ERROR_OUT_OF_DEVICE_MEMORY : VK_ERROR_DEVICE_LOST;
}

} // namespace isoscope
