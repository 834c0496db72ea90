#pragma once
// The ceiling streamed extraction is measured against: how fast the device
// copies from pinned (host-visible, mapped) memory into its own, as a
// render-graph transfer pass timed by the GPU's timestamps.
#include <cstdint>

namespace isoscope {

class Context;

struct CopyBandwidth {
    uint64_t bytes = 0;    // per copy
    uint32_t copies = 0;
    double gpuMs = 0;      // all copies, by timestamps
    double bytesPerSecond() const { return gpuMs > 0 ? double(bytes) * copies / (gpuMs * 1e-3) : 0.0; }
};

// Copies `bytes` from a pinned staging buffer to a device-local buffer
// `copies` times (after one untimed copy). gpuMs is 0 where the queue has no
// timestamps.
CopyBandwidth measureUploadBandwidth(Context& context, uint64_t bytes, uint32_t copies);

} // namespace isoscope
