#pragma once
// The ceiling streamed extraction is measured against: how fast the device
// copies from pinned (host-visible, mapped) memory into its own, as
// render-graph transfer passes timed by the GPU's timestamps, on the main
// queue, on the transfer queue, or on two transfer queues at once (each
// copying its half; the span from the first start to the last end, one
// clock for all of a device's queues).
#include <cstdint>

#include "core/queue_role.h"

namespace isoscope {

class Context;

struct CopyBandwidth {
    uint64_t bytes = 0;    // per copy, all queues together
    uint32_t copies = 0;
    uint32_t queues = 1;
    QueueRole role = QueueRole::Main;
    double gpuMs = 0;      // all copies, by timestamps
    double bytesPerSecond() const { return gpuMs > 0 ? double(bytes) * copies / (gpuMs * 1e-3) : 0.0; }
};

// Copies `bytes` from a pinned staging buffer to device-local memory
// `copies` times (after one untimed round) on `queues` queues of `role`
// (more than Context::transferQueueCount() is an error; 2 only for the
// transfer role). gpuMs is 0 where a queue has no timestamps.
CopyBandwidth measureUploadBandwidth(Context& context, uint64_t bytes, uint32_t copies,
                                     QueueRole role = QueueRole::Main, uint32_t queues = 1);

} // namespace isoscope
