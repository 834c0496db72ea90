#include "core/submission.h"

#include "core/error.h"
#include "core/fault_injection.h"
#include "core/vk_check.h"

namespace isoscope {

void submitToQueue(VkQueue queue, std::mutex& queueMutex, const VkSubmitInfo2& submit, VkFence fence)
{
    VkResult submitted = injectedFault(FaultSite::Submit);
    if (submitted == VK_SUCCESS) {
        std::lock_guard lock(queueMutex);
        submitted = vkQueueSubmit2(queue, 1, &submit, fence);
    }
    if (submitted != VK_SUCCESS)
        failVulkanCall("vkQueueSubmit2", submitted, __FILE__, __LINE__);
}

void waitForFenceAndReset(VkDevice device, VkFence fence)
{
    VkResult waited = vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX);
    if (waited == VK_SUCCESS)
        waited = injectedFault(FaultSite::Wait);
    if (waited != VK_SUCCESS)
        failVulkanCall("vkWaitForFences", waited, __FILE__, __LINE__);
    VK_CHECK(vkResetFences(device, 1, &fence));
}

void waitForTimeline(VkDevice device, VkSemaphore semaphore, uint64_t value)
{
    VkSemaphoreWaitInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    info.semaphoreCount = 1;
    info.pSemaphores = &semaphore;
    info.pValues = &value;
    VkResult waited = vkWaitSemaphores(device, &info, UINT64_MAX);
    if (waited == VK_SUCCESS)
        waited = injectedFault(FaultSite::Wait);
    if (waited != VK_SUCCESS)
        failVulkanCall("vkWaitSemaphores", waited, __FILE__, __LINE__);
}

} // namespace isoscope
