// Host pages imported as a buffer (core/host_import.h): what streamed
// extraction's staging is made of where the device can import.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

#include "core/context.h"
#include "core/host_import.h"
#include "core/transfer.h"
#include "gpu_test_context.h"

using namespace isoscope;

TEST_CASE("imported host pages are a buffer the device copies from, counted as no device memory", "[gpu][core][stream]")
{
    Context& context = test::gpuContext();
    if (!canImportHostMemory(context)) {
        WARN("the device imports no host memory: nothing to test");
        return;
    }
    Allocator& allocator = context.allocator();
    const uint64_t before = allocator.currentDeviceBytes();
    const uint64_t size = (uint64_t(3) << 20) + 123; // not a multiple of any page
    std::vector<std::byte> copied;
    {
        HostImportedBuffer staging = importHostBuffer(context, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, "test staging");
        REQUIRE(staging.data() != nullptr);
        REQUIRE(reinterpret_cast<uintptr_t>(staging.data()) % 4096 == 0);
        REQUIRE(staging.buffer.size == size);
        REQUIRE(allocator.currentDeviceBytes() == before);
        bool zero = true;
        for (uint64_t i = 0; i < size; ++i)
            zero &= staging.data()[i] == std::byte{0};
        REQUIRE(zero); // fresh pages
        for (uint64_t i = 0; i < size; ++i)
            staging.data()[i] = std::byte(uint8_t(i * 7 + (i >> 12)));

        Buffer target = allocator.createBuffer(size, VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                               MemoryUsage::DeviceLocal, "test target");
        test::runGraph(context, [&](RenderGraph& graph) {
            ResourceId from = graph.importBuffer("test staging", staging.buffer.buffer);
            ResourceId to = graph.importBuffer("test target", target.buffer);
            graph.addPass("copy", PassKind::Transfer, {{from, Use::TransferSrc}, {to, Use::TransferDst}},
                          [=](VkCommandBuffer cmd, const RenderGraph& g) {
                              VkBufferCopy copy{0, 0, size};
                              vkCmdCopyBuffer(cmd, g.buffer(from), g.buffer(to), 1, &copy);
                          });
        });
        copied = downloadBuffer(context, target, size);
    }
    REQUIRE(copied.size() == size);
    uint64_t wrong = 0;
    for (uint64_t i = 0; i < size; ++i)
        wrong += copied[i] != std::byte(uint8_t(i * 7 + (i >> 12)));
    REQUIRE(wrong == 0);
    REQUIRE(allocator.currentDeviceBytes() == before);
    REQUIRE_NO_VALIDATION_MESSAGES();
}
