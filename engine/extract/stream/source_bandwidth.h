#pragma once
// The second ceiling of streamed extraction: how fast a volume source's
// planes reach the device with nothing extracted. Its planes are read
// (every core, as the source reads) into a few pinned staging buffers in
// turn, each uploaded by a render-graph transfer pass on the transfer queue
// while the next is read. A file read through the page cache is a host copy
// of every byte beside the DMA's reads of the same memory, a generated
// field the host's arithmetic: where that is slower than the copy ceiling
// (copy_bandwidth.h), no extraction of that source can be faster.
//
//   SourceBandwidth bound = measureSourceUpload(context, *source, uint64_t(128) << 20);
//   double gbPerSecond = bound.bytesPerSecond() * 1e-9;
#include <cstdint>

namespace isoscope {

class Context;
class VolumeSource;

struct SourceBandwidth {
    uint64_t bytes = 0;      // the source's planes, each read and uploaded once
    uint32_t pieces = 0;     // uploads of whole planes
    uint64_t pieceBytes = 0; // each (the last may be smaller)
    uint32_t buffers = 0;    // staging buffers in turn
    bool stagingImported = false; // host pages the device imported (as the streamed staging), else its pinned memory
    double wallMs = 0;       // the host's clock: the first read's start to the last upload's end
    double readMs = 0;       // the host reading, all pieces
    double stagingWaitMs = 0; // the host waiting for a staging buffer's last upload before reading into it
    double uploadGpuMs = 0;  // GPU timestamps, all uploads (0 where the queue has none)
    double bytesPerSecond() const { return wallMs > 0 ? double(bytes) / (wallMs * 1e-3) : 0.0; }
};

// Reads all of `source` in pieces of about `pieceBytes` (whole planes, at
// least one) into `buffers` staging buffers in turn, made as the streamed
// extraction's staging is (host pages the device imports, in huge pages,
// where it can, else the driver's pinned memory: the two differ only in
// what runs beside the uploads), and uploads each to a device buffer of
// its own. The buffers are made and touched before
// the clock starts. Throws the source's Error (after the uploads in flight
// finish) where it cannot deliver.
SourceBandwidth measureSourceUpload(Context& context, VolumeSource& source, uint64_t pieceBytes,
                                    uint32_t buffers = 4);

} // namespace isoscope
