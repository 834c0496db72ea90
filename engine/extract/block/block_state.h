#pragma once
// The block method's small state buffer (`State` in
// shaders/extract/block/block_common.glsl): the list's length and the
// indirect dispatches the GPU sizes. It survives the frame, so its counts can
// be read back after it (overflow handling, benchmarks).
#include <cstdint>

#include <volk.h>

namespace isoscope {

struct BlockState {
    uint32_t activeCount;
    // count_vertices and generate_triangles: COUNT_BLOCKS_PER_GROUP listed blocks a workgroup
    VkDispatchIndirectCommand dispatch;
    uint32_t meshBlockCount; // welded: listed blocks with vertices or triangles
};

} // namespace isoscope
