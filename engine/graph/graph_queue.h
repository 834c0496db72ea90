#pragma once
// One of the context's queues as render graphs are submitted to it without
// waiting for them: each submission signals the queue's timeline semaphore
// with the next value and may first wait for values of other queues (the
// semaphores between submissions: a slab's upload on the transfer queue,
// then its extraction on the main queue). Command buffers are recycled once
// the timeline has passed them. Ownership of resources crossing between the
// two queues' families is the graphs' (graph_desc.h); the order is this.
//
//   GraphQueue transfer(context, QueueRole::Transfer), compute(context, QueueRole::Main);
//   uint64_t uploaded = transfer.submit({&upload});
//   uint64_t extracted = compute.submit({&extraction}, {transfer.after(uploaded)});
//   compute.wait(extracted);   // then read back what it wrote
//
// Without timeline semaphores (a host's device that did not enable them)
// each submission is waited for before submit returns: correct, not overlapped.
#include <cstdint>
#include <deque>
#include <mutex>
#include <vector>

#include <volk.h>

#include "core/queue_role.h"

namespace isoscope {

class Context;
class RenderGraph;

// A submission waits until `semaphore` reaches `value`, before `stages`.
struct QueueWait {
    VkSemaphore semaphore = VK_NULL_HANDLE;
    uint64_t value = 0;
    VkPipelineStageFlags2 stages = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
};

class GraphQueue {
public:
    // `index`: which of the role's queues (Context::transferQueueCount()).
    GraphQueue(Context& context, QueueRole role, uint32_t index = 0);
    ~GraphQueue(); // waits for its submissions
    GraphQueue(const GraphQueue&) = delete;
    GraphQueue& operator=(const GraphQueue&) = delete;

    QueueRole role() const { return role_; }
    uint32_t family() const { return family_; }

    // Records `graphs` in order (each compiled, placed on this queue's
    // family) into one command buffer and submits it after `waits`; returns
    // the timeline value that says it finished. A graph may be recorded
    // again once that value is reached and its timings read.
    uint64_t submit(const std::vector<RenderGraph*>& graphs, const std::vector<QueueWait>& waits = {});
    // The wait another queue's submission makes for this queue's `value`.
    QueueWait after(uint64_t value, VkPipelineStageFlags2 stages = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT) const;
    // The host waits until `value` is reached (thread-safe: a reader thread
    // waits for the upload that frees its staging buffer).
    void wait(uint64_t value) const;
    uint64_t submitted() const { return submitted_; }
    void waitIdle() const { wait(submitted_); }

private:
    void recycle();

    Context& context_;
    QueueRole role_;
    VkQueue queue_ = VK_NULL_HANDLE;
    uint32_t family_ = 0;
    std::mutex* queueMutex_ = nullptr;
    bool timeline_ = false;
    VkSemaphore semaphore_ = VK_NULL_HANDLE; // timeline
    VkFence fence_ = VK_NULL_HANDLE;         // without a timeline
    VkCommandPool pool_ = VK_NULL_HANDLE;
    struct InFlight {
        VkCommandBuffer cmd;
        uint64_t value;
    };
    std::deque<InFlight> inFlight_;
    std::vector<VkCommandBuffer> free_;
    uint64_t submitted_ = 0;
};

} // namespace isoscope
