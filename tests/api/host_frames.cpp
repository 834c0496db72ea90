#include "host_frames.h"

#include <cstring>
#include <mutex>

#include "check.h"
#include "frame_output.h"

namespace api_test {

namespace {

using isoscope::api::ImageState;

constexpr VkPipelineStageFlags2 kFragmentTests =
    VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT;
// The Renderer clears both targets, so they start UNDEFINED; the fence wait
// ordered the slot's previous frame (its copy out, its depth tests) before.
constexpr ImageState kColorBefore{VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_NONE};
constexpr ImageState kColorCopiedOut{VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT,
                                     VK_ACCESS_2_TRANSFER_READ_BIT};
constexpr ImageState kDepthBefore{VK_IMAGE_LAYOUT_UNDEFINED, kFragmentTests, VK_ACCESS_2_NONE};
constexpr ImageState kDepthAfter{VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, kFragmentTests,
                                 VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                                     VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT};

} // namespace

HostFrames::HostFrames(isoscope::api::Context& context, uint32_t framesInFlight, VkExtent2D extent)
    : context_(context), extent_(extent)
{
    slots_ = samplehost::createFrameSlots(context.physicalDevice(), context.device(), context.queueFamily(),
                                     framesInFlight, extent, false);
    for (uint32_t i = 0; i < framesInFlight; ++i)
        readbacks_.push_back(samplehost::createReadbackBuffer(context.physicalDevice(), context.device(),
                                                         VkDeviceSize(extent.width) * extent.height * 4));
}

HostFrames::~HostFrames()
{
    std::lock_guard queue(context_.queueMutex()); // a test may be loading on another thread
    vkDeviceWaitIdle(context_.device());
    for (samplehost::GpuBuffer& buffer : readbacks_)
        samplehost::destroyBuffer(context_.device(), buffer);
}

void HostFrames::submit(isoscope::api::Renderer& renderer, uint64_t frame)
{
    slots_->waitForSlot(frame);
    samplehost::FrameSlot& slot = (*slots_)[frame];
    samplehost::beginSlot(context_.device(), slot);
    isoscope::api::FrameTargets targets{{slot.color.image, slot.color.view, kColorBefore, kColorCopiedOut},
                                        {slot.depth.image, slot.depth.view, kDepthBefore, kDepthAfter}};
    samplehost::require(renderer.record(slot.cmd, frame, targets), "Renderer::record");
    samplehost::recordReadback(slot.cmd, slot, extent_, readbacks_[frame % readbacks_.size()]);
    std::lock_guard queue(context_.queueMutex()); // a test may be loading on another thread
    samplehost::submitSlot(context_.device(), context_.queue(), slot, VK_NULL_HANDLE, VK_NULL_HANDLE);
}

std::vector<uint8_t> HostFrames::colour(uint64_t frame)
{
    slots_->waitForSlot(frame);
    const samplehost::GpuBuffer& readback = readbacks_[frame % readbacks_.size()];
    std::vector<uint8_t> pixels(size_t(extent_.width) * extent_.height * 4);
    std::memcpy(pixels.data(), readback.mapped, pixels.size());
    return pixels;
}

} // namespace api_test
