#pragma once
// Fault injection, for the tests of how the engine fails (issue 21): the
// environment variable ISOSCOPE_INJECT_FAULT=SITE:N makes the N-th call
// (from 1) at SITE fail as a driver's would, once:
//   allocate  vkAllocateMemory: VK_ERROR_OUT_OF_DEVICE_MEMORY, nothing allocated
//   submit    vkQueueSubmit2: VK_ERROR_DEVICE_LOST, nothing submitted
//   wait      vkWaitForFences: VK_ERROR_DEVICE_LOST, after the real wait, so
//             that nothing the GPU still uses is freed while the error unwinds
// These are the engine's only calls of each (core/memory.cpp,
// core/submission.cpp): every allocation and submission passes one, so a test
// that raises N from 1 until the command succeeds fails every call site in
// turn. Unset, it costs one branch per call.
#include <cstdint>

#include <volk.h>

namespace isoscope {

enum class FaultSite { Allocate, Submit, Wait };

// VK_SUCCESS, or the error this call at `site` is to fail with. Counts the
// calls at each site. Throws Error for a malformed ISOSCOPE_INJECT_FAULT.
VkResult injectedFault(FaultSite site);

} // namespace isoscope
