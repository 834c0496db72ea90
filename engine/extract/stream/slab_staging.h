#pragma once
// A streamed slab's staging as the upload passes read it: pieces of whole
// planes, each at the start of a buffer of its own (host pages imported a
// piece at a time, so the first pieces are ready to upload before the last
// are pinned; streamed_extraction.cpp).
#include <cstdint>
#include <vector>

#include <volk.h>

namespace isoscope {

// Planes [firstPlane, firstPlane + planes) of the slab volume, from byte 0
// of `buffer` (the method's texels, x fastest).
struct SlabStagingPiece {
    VkBuffer buffer = VK_NULL_HANDLE;
    uint32_t firstPlane = 0, planes = 0;
};

using SlabStaging = std::vector<SlabStagingPiece>;

} // namespace isoscope
