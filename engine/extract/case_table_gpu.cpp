#include "extract/case_table_gpu.h"

#include <array>
#include <vector>

#include "core/context.h"
#include "core/transfer.h"
#include "extract/case_table.h"

namespace isoscope {

Buffer uploadCaseTable(Context& context)
{
    std::vector<std::array<uint32_t, 4>> packed(kMarchingCubesCaseCount, {0, 0, 0, 0});
    const MarchingCubesCaseTable& table = marchingCubesCases();
    for (int c = 0; c < kMarchingCubesCaseCount; ++c) {
        packed[c][0] = table[c].triangleCount;
        for (int i = 0; i < 3 * table[c].triangleCount; ++i)
            packed[c][1 + i / 8] |= uint32_t(table[c].edges[i] & 0xF) << (4 * (i % 8));
    }
    Buffer buffer = context.allocator().createBuffer(packed.size() * sizeof(packed[0]),
                                                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                     MemoryUsage::DeviceLocal, "marching cubes case table");
    uploadToBuffer(context, buffer, packed.data(), packed.size() * sizeof(packed[0]));
    return buffer;
}

} // namespace isoscope
