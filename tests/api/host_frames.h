#pragma once
// A host's frame loop in miniature, for the API tests: frame slots (samples/common's,
// as the embed sample's: a command buffer, a fence and colour and depth targets each), a
// Renderer's frame recorded into the slot's command buffer with the targets'
// states stated, the colour copied to a read-back buffer of the slot's own,
// and the submission signalling the slot's fence.
#include <cstdint>
#include <memory>
#include <vector>

#include <isoscope/isoscope.h>

#include "frame_slots.h"
#include "gpu_memory.h"

namespace api_test {

class HostFrames {
public:
    HostFrames(isoscope::api::Context& context, uint32_t framesInFlight, VkExtent2D extent);
    ~HostFrames();
    // Waits for the slot's last frame (frame - framesInFlight), then records
    // and submits `frame`: `renderer`'s passes and the colour's copy out.
    void submit(isoscope::api::Renderer& renderer, uint64_t frame);
    // The colour of the last frame submitted in `frame`'s slot, RGBA8,
    // after waiting for it.
    std::vector<uint8_t> colour(uint64_t frame);

private:
    isoscope::api::Context& context_;
    VkExtent2D extent_;
    std::unique_ptr<samplehost::FrameSlots> slots_;
    std::vector<samplehost::GpuBuffer> readbacks_;
};

} // namespace api_test
