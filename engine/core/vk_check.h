#pragma once
// Every VkResult is checked: VK_CHECK turns a failure into isoscope::Error
// naming the call and the result, so a user sees which Vulkan call failed.
#include <volk.h>

#include "core/error.h"

namespace isoscope {

const char* vkResultName(VkResult result);
[[noreturn]] void failVulkanCall(const char* call, VkResult result, const char* file, int line);

} // namespace isoscope

#define VK_CHECK(call)                                                                   \
    do {                                                                                 \
        VkResult vk_check_result_ = (call);                                              \
        if (vk_check_result_ != VK_SUCCESS)                                              \
            ::isoscope::failVulkanCall(#call, vk_check_result_, __FILE__, __LINE__);     \
    } while (0)
