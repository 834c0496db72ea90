#pragma once
// How the sample stops on a failure: a failed Vulkan or isoscope call throws
// Failure, which main() prints and turns into exit code 1 once the objects
// made so far are destroyed (isoscope's before the device they run on).
#include <stdexcept>
#include <string>
#include <utility>

#include <vulkan/vulkan_core.h>

#include <isoscope/result.h>

namespace samplehost {

struct Failure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::string vkResultName(VkResult result);

inline void vkCheck(VkResult result, const char* call)
{
    if (result != VK_SUCCESS)
        throw Failure(std::string(call) + " failed: " + vkResultName(result));
}

// The message names the call as written, the way niagara's VK_CHECK does.
#define VK_CHECK(call) ::samplehost::vkCheck((call), #call)

template <typename T>
T take(isoscope::api::Result<T>&& result, const std::string& what)
{
    if (!result)
        throw Failure(what + ": " + result.error().message);
    return std::move(result).value();
}

inline void require(const isoscope::api::Status& status, const std::string& what)
{
    if (!status)
        throw Failure(what + ": " + status.error().message);
}

} // namespace samplehost
