#include "extract/case_table_gpu.h"

#include <array>

#include "core/context.h"
#include "core/transfer.h"
#include "extract/case_table.h"

namespace isoscope {

Buffer createCaseTableBuffer(Context& context)
{
    static_assert(1 + 3 * kMaxTrianglesPerCase <= 2 * kCaseTableGpuBytesPerCase, "a count and 15 edges, 4 bits each");
    std::array<uint8_t, kMarchingCubesCaseCount * kCaseTableGpuBytesPerCase> bytes{};
    const MarchingCubesCaseTable& cases = marchingCubesCases();
    for (int c = 0; c < kMarchingCubesCaseCount; ++c) {
        uint8_t* entry = &bytes[c * kCaseTableGpuBytesPerCase];
        auto setNibble = [&](int i, uint8_t value) { entry[i / 2] |= uint8_t((value & 0xF) << (4 * (i % 2))); };
        setNibble(0, cases[c].triangleCount);
        for (int i = 0; i < 3 * kMaxTrianglesPerCase; ++i)
            setNibble(1 + i, cases[c].edges[i]); // 0..11, or 0xFF unused: 0xF
    }
    Buffer buffer = context.allocator().createBuffer(bytes.size(),
                                                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                     MemoryUsage::DeviceLocal, "marching cubes case table");
    uploadToBuffer(context, buffer, bytes.data(), bytes.size());
    return buffer;
}

} // namespace isoscope
