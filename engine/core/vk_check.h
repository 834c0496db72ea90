#pragma once
// Every VkResult is checked: VK_CHECK turns a failure into isoscope::Error
// naming the call and the result, so a user sees which Vulkan call failed.
#include <cstdint>
#include <vector>

#include <volk.h>

#include "core/error.h"

namespace isoscope {

const char* vkResultName(VkResult result);
[[noreturn]] void failVulkanCall(const char* call, VkResult result, const char* file, int line);

// Vulkan's two-call enumeration: `query(&count, nullptr)` for the count, then
// `query(&count, items)`; each item starts as `blank` (its sType where it has
// one). The query does its own VK_CHECK, so an error names the Vulkan call.
template <typename Item, typename Query>
std::vector<Item> enumerateAll(Query query, const Item& blank = {})
{
    uint32_t count = 0;
    query(&count, static_cast<Item*>(nullptr));
    std::vector<Item> items(count, blank);
    query(&count, items.data());
    items.resize(count);
    return items;
}

} // namespace isoscope

#define VK_CHECK(call)                                                                   \
    do {                                                                                 \
        VkResult vk_check_result_ = (call);                                              \
        if (vk_check_result_ != VK_SUCCESS)                                              \
            ::isoscope::failVulkanCall(#call, vk_check_result_, __FILE__, __LINE__);     \
    } while (0)
