#pragma once
// The engine's queue submissions and host waits. Each passes its
// fault-injection site (core/fault_injection.h), so the failure tests reach
// every caller: Context::submitAndWait and GraphQueue.
#include <cstdint>
#include <mutex>

#include <volk.h>

namespace isoscope {

// vkQueueSubmit2 with `queueMutex` held; throws Error naming the call on failure.
void submitToQueue(VkQueue queue, std::mutex& queueMutex, const VkSubmitInfo2& submit, VkFence fence);

// Waits for `fence`, then resets it; throws Error on a failed wait.
void waitForFenceAndReset(VkDevice device, VkFence fence);

// Waits until `semaphore` (a timeline) reaches `value`; throws Error on a failed wait.
void waitForTimeline(VkDevice device, VkSemaphore semaphore, uint64_t value);

} // namespace isoscope
