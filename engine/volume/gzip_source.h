#pragma once
// A gzip-encoded NRRD read slab by slab: the compressed stream inflated in
// order as planes are asked for, never whole (gzip has no random access).
// Internal to engine/volume; openFileSource (volume_source.h) opens it.
#include <memory>

#include "volume/readers.h"

namespace isoscope {

class VolumeSource;

// Planes asked for in increasing order (slabs that share a few planes with
// the one before, as streamed extraction asks) cost one pass over the
// stream; the last few planes given are kept for the overlap. A plane
// further back starts the stream again (correct, slower). Throws Error,
// naming the file, for corrupt or short data, and for data longer than the
// header says once the last plane is read.
std::unique_ptr<VolumeSource> openGzipSource(InPlaceLayout layout);

} // namespace isoscope
