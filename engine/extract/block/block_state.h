#pragma once
// The block method's small state buffer (`State` in
// shaders/extract/block/block_common.glsl): the list's length and the
// indirect dispatches the GPU sizes. It survives the frame, so its counts can
// be read back after it (overflow handling, benchmarks). Created zero:
// compact_blocks sets its own counters back to zero when it is done.
#include <cstdint>

#include <volk.h>

namespace isoscope {

struct BlockState {
    uint32_t activeCount;
    VkDispatchIndirectCommand dispatch;      // generate_triangles: a workgroup per listed block
    uint32_t meshBlockCount;                 // welded: listed blocks with vertices or triangles
    VkDispatchIndirectCommand countDispatch; // count_vertices: COUNT_BLOCKS_PER_GROUP blocks a workgroup
    VkDispatchIndirectCommand rowDispatch;   // generate_rows: the same, or empty where the cell pass runs
    uint32_t activeCounter;                  // compact_blocks: the active blocks so far (0 between frames)
    uint32_t compactGroupsDone;              // compact_blocks: its finished workgroups (0 between frames)
};

} // namespace isoscope
