#include "graph/graph_queue.h"

#include "core/context.h"
#include "core/error.h"
#include "core/submission.h"
#include "core/vk_check.h"
#include "graph/render_graph.h"

namespace isoscope {

GraphQueue::GraphQueue(Context& context, QueueRole role, uint32_t index) : context_(context), role_(role)
{
    if (role == QueueRole::Main) {
        queue_ = context.queue();
        queueMutex_ = &context.queueMutex();
    } else {
        queue_ = context.transferQueue(index);
        queueMutex_ = &context.transferQueueMutex(index);
    }
    family_ = context.queueFamily(role);
    VkDevice device = context.device();
    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    poolInfo.queueFamilyIndex = family_;
    VK_CHECK(vkCreateCommandPool(device, &poolInfo, nullptr, &pool_));
    timeline_ = context.info().features.timelineSemaphore;
    if (timeline_) {
        VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
        type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
        type.initialValue = 0;
        VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &type};
        VkResult created = vkCreateSemaphore(device, &info, nullptr, &semaphore_);
        if (created != VK_SUCCESS) {
            vkDestroyCommandPool(device, pool_, nullptr);
            failVulkanCall("vkCreateSemaphore", created, __FILE__, __LINE__);
        }
    } else {
        VkFenceCreateInfo info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        VkResult created = vkCreateFence(device, &info, nullptr, &fence_);
        if (created != VK_SUCCESS) {
            vkDestroyCommandPool(device, pool_, nullptr);
            failVulkanCall("vkCreateFence", created, __FILE__, __LINE__);
        }
    }
}

GraphQueue::~GraphQueue()
{
    VkDevice device = context_.device();
    if (timeline_ && submitted_ > 0) {
        // Everything submitted must finish before its command buffers go; an
        // error here has nowhere to go but a wait for the whole device.
        VkSemaphoreWaitInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
        info.semaphoreCount = 1;
        info.pSemaphores = &semaphore_;
        info.pValues = &submitted_;
        if (vkWaitSemaphores(device, &info, UINT64_MAX) != VK_SUCCESS)
            vkDeviceWaitIdle(device);
    }
    vkDestroyCommandPool(device, pool_, nullptr);
    if (semaphore_)
        vkDestroySemaphore(device, semaphore_, nullptr);
    if (fence_)
        vkDestroyFence(device, fence_, nullptr);
}

void GraphQueue::recycle()
{
    if (!timeline_)
        return;
    uint64_t done = 0;
    VK_CHECK(vkGetSemaphoreCounterValue(context_.device(), semaphore_, &done));
    while (!inFlight_.empty() && inFlight_.front().value <= done) {
        free_.push_back(inFlight_.front().cmd);
        inFlight_.pop_front();
    }
}

uint64_t GraphQueue::submit(const std::vector<RenderGraph*>& graphs, const std::vector<QueueWait>& waits)
{
    for (const RenderGraph* graph : graphs)
        if (graph->queueFamily() != family_)
            fail("a graph placed on queue family " + std::to_string(graph->queueFamily()) +
                 " was submitted to a queue of family " + std::to_string(family_) + " (engine bug)");
    recycle();
    VkDevice device = context_.device();
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    if (!free_.empty()) {
        cmd = free_.back();
        free_.pop_back();
        VK_CHECK(vkResetCommandBuffer(cmd, 0));
    } else {
        VkCommandBufferAllocateInfo allocateInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        allocateInfo.commandPool = pool_;
        allocateInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        allocateInfo.commandBufferCount = 1;
        VK_CHECK(vkAllocateCommandBuffers(device, &allocateInfo, &cmd));
    }
    // Back on the free list if recording or submitting throws.
    struct Keep {
        std::vector<VkCommandBuffer>& free;
        VkCommandBuffer cmd;
        bool submitted = false;
        ~Keep()
        {
            if (!submitted)
                free.push_back(cmd);
        }
    } keep{free_, cmd};

    VkCommandBufferBeginInfo beginInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    beginInfo.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VK_CHECK(vkBeginCommandBuffer(cmd, &beginInfo));
    for (RenderGraph* graph : graphs)
        graph->record(cmd);
    VK_CHECK(vkEndCommandBuffer(cmd));

    std::vector<VkSemaphoreSubmitInfo> waitInfos;
    for (const QueueWait& wait : waits) {
        if (!wait.semaphore)
            continue; // no timeline: the value was waited for when it was submitted
        VkSemaphoreSubmitInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
        info.semaphore = wait.semaphore;
        info.value = wait.value;
        info.stageMask = wait.stages;
        waitInfos.push_back(info);
    }
    uint64_t value = submitted_ + 1;
    VkSemaphoreSubmitInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    signal.semaphore = semaphore_;
    signal.value = value;
    signal.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    VkCommandBufferSubmitInfo cmdInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
    cmdInfo.commandBuffer = cmd;
    VkSubmitInfo2 submitInfo{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    submitInfo.waitSemaphoreInfoCount = uint32_t(waitInfos.size());
    submitInfo.pWaitSemaphoreInfos = waitInfos.data();
    submitInfo.commandBufferInfoCount = 1;
    submitInfo.pCommandBufferInfos = &cmdInfo;
    submitInfo.signalSemaphoreInfoCount = timeline_ ? 1 : 0;
    submitInfo.pSignalSemaphoreInfos = &signal;
    submitToQueue(queue_, *queueMutex_, submitInfo, timeline_ ? VK_NULL_HANDLE : fence_);
    keep.submitted = true;
    submitted_ = value;
    if (!timeline_) {
        waitForFenceAndReset(device, fence_);
        free_.push_back(cmd);
        return value;
    }
    inFlight_.push_back({cmd, value});
    return value;
}

QueueWait GraphQueue::after(uint64_t value, VkPipelineStageFlags2 stages) const
{
    return {timeline_ ? semaphore_ : VK_NULL_HANDLE, value, stages};
}

void GraphQueue::wait(uint64_t value) const
{
    if (!timeline_ || value == 0)
        return;
    waitForTimeline(context_.device(), semaphore_, value);
}

} // namespace isoscope
