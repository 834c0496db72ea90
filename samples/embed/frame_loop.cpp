#include "frame_loop.h"

#include <chrono>
#include <cstring>

#include "check.h"
#include "frame_record.h"

namespace embed {
using namespace samplehost; // the host code shared with the viewer (samples/common)
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

void beginFrame(FrameLoop& loop, uint64_t frame)
{
    FrameSlot& slot = loop.slots[frame];
    beginSlot(loop.host.device, slot);

    loop.isoscope.setFrameIsovalue(frame, loop.options.animate);
    FrameCommands commands;
    commands.frame = frame;
    commands.extent = loop.slots.extent;
    commands.host = loop.hostScene;
    commands.view = &loop.view;
    commands.renderer = loop.isoscope.renderer ? &*loop.isoscope.renderer : nullptr;
    recordFrame(slot, commands);
}

// `wait` (at the blit) and `signal` are the swapchain's semaphores; none when headless.
void endAndSubmit(FrameLoop& loop, uint64_t frame, VkSemaphore wait, VkSemaphore signal)
{
    submitSlot(loop.host.device, loop.host.queue, loop.slots[frame], wait, signal);
}

void waitForAllSlots(FrameLoop& loop, uint64_t frames)
{
    for (uint64_t frame = 0; frame < loop.slots.slots.size() && frame < frames; ++frame)
        loop.slots.waitForSlot(frame);
}

// The read-back buffer, freed on the way out of an exception too.
struct Readback {
    VkDevice device = VK_NULL_HANDLE;
    GpuBuffer buffer;
    ~Readback()
    {
        if (buffer.buffer)
            destroyBuffer(device, buffer);
    }
};

// A new swapchain size: new targets, and isoscope told the size and the camera's new aspect.
void resize(FrameLoop& loop, Window& window)
{
    VK_CHECK(vkDeviceWaitIdle(loop.host.device));
    window.recreateSwapchain();
    if (window.extent.width == loop.slots.extent.width && window.extent.height == loop.slots.extent.height)
        return;
    loop.slots.resize(window.extent);
    loop.view = layoutScene(*loop.isoscope.volume, window.extent, loop.options.azimuthDeg, loop.options.elevationDeg,
                            loop.options.cubeInFront);
    if (loop.isoscope.renderer) {
        require(loop.isoscope.renderer->setExtent(window.extent), "isoscope::api::Renderer::setExtent");
        require(loop.isoscope.renderer->setCamera(loop.view.camera), "setting the camera");
    }
}

} // namespace

// The frame that last used this slot has finished: its timestamps are ready.
void collectTimings(FrameLoop& loop, uint64_t frame)
{
    uint64_t inFlight = loop.options.framesInFlight;
    if (loop.timings && loop.isoscope.renderer && frame >= inFlight)
        loop.timings->collect(*loop.isoscope.renderer, frame - inFlight);
}

LoopStats runHeadless(FrameLoop& loop, uint64_t frames, isoscope::api::Image* image)
{
    VkExtent2D extent = loop.slots.extent;
    Readback readback{loop.host.device};
    if (image)
        readback.buffer = createReadbackBuffer(loop.host.physical, loop.host.device,
                                               VkDeviceSize(extent.width) * extent.height * 4);

    double recordMs = 0.0;
    Clock::time_point start = Clock::now();
    for (uint64_t frame = 0; frame < frames; ++frame) {
        Clock::time_point frameStart = Clock::now();
        loop.slots.waitForSlot(frame);
        collectTimings(loop, frame);
        beginFrame(loop, frame);
        if (image && frame + 1 == frames)
            recordReadback(loop.slots[frame].cmd, loop.slots[frame], extent, readback.buffer);
        endAndSubmit(loop, frame, VK_NULL_HANDLE, VK_NULL_HANDLE);
        recordMs += msSince(frameStart);
    }
    waitForAllSlots(loop, frames);
    double wallMs = msSince(start);

    if (image) {
        image->width = extent.width;
        image->height = extent.height;
        image->rgba.resize(size_t(readback.buffer.size));
        std::memcpy(image->rgba.data(), readback.buffer.mapped, image->rgba.size());
    }
    return {frames, recordMs / double(frames), wallMs / double(frames)};
}

LoopStats runWindowed(FrameLoop& loop, Window& window, std::optional<uint64_t> frames)
{
    double recordMs = 0.0;
    uint64_t frame = 0;
    Clock::time_point start = Clock::now();
    while (!window.shouldClose() && (!frames || frame < *frames)) {
        window.pollEvents();
        Clock::time_point frameStart = Clock::now();
        loop.slots.waitForSlot(frame);
        collectTimings(loop, frame);
        FrameSlot& slot = loop.slots[frame];

        uint32_t imageIndex = 0;
        VkResult acquired = vkAcquireNextImageKHR(loop.host.device, window.swapchain, UINT64_MAX, slot.imageAcquired,
                                                  VK_NULL_HANDLE, &imageIndex);
        if (acquired == VK_ERROR_OUT_OF_DATE_KHR) {
            resize(loop, window); // the semaphore was not signalled: the slot stays as it was
            continue;
        }
        if (acquired != VK_SUBOPTIMAL_KHR) // suboptimal still acquired an image: draw it, resize after
            VK_CHECK(acquired);

        beginFrame(loop, frame);
        recordBlitToSwapchain(slot.cmd, slot, loop.slots.extent, window.images[imageIndex], window.extent);
        VkSemaphore renderDone = window.renderDone[imageIndex];
        endAndSubmit(loop, frame, slot.imageAcquired, renderDone);
        recordMs += msSince(frameStart);

        VkResult presented = presentImage(loop.host.queue, window, imageIndex, renderDone);
        ++frame;
        VkExtent2D now = window.framebufferExtent();
        bool resized = now.width != window.extent.width || now.height != window.extent.height;
        if (presented == VK_ERROR_OUT_OF_DATE_KHR || presented == VK_SUBOPTIMAL_KHR || acquired == VK_SUBOPTIMAL_KHR || resized)
            resize(loop, window);
        else
            VK_CHECK(presented);
    }
    waitForAllSlots(loop, frame);
    double wallMs = msSince(start);
    if (frame == 0)
        return {};
    return {frame, recordMs / double(frame), wallMs / double(frame)};
}

} // namespace embed
