// The subgroup operations the extractors build on, checked against a CPU
// model of what they must return. The model takes the subgroup layout from
// what the shader reports (gl_SubgroupID, gl_SubgroupInvocationID), so it
// assumes no size; a separate test checks the size is the one expected.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <random>

#include "core/context.h"
#include "core/memory.h"
#include "core/shader.h"
#include "core/transfer.h"
#include "gpu_test_context.h"

using namespace isoscope;

namespace {

constexpr uint32_t kWords = 16;

struct Lane {
    uint32_t index;
    const uint32_t* out;
};

std::vector<uint32_t> runSubgroupOps(Context& context, const std::vector<uint32_t>& inputs, uint32_t workgroupSize)
{
    ComputeProgram program(context, loadShader("tests/subgroup_ops"), {{"WORKGROUP_SIZE", workgroupSize}});
    REQUIRE(program.localSize()[0] == workgroupSize);
    uint32_t count = uint32_t(inputs.size());
    Buffer in = context.allocator().createBuffer(std::max<size_t>(4, count * 4), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                                 VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUsage::DeviceLocal, "inputs");
    Buffer out = context.allocator().createBuffer(std::max<size_t>(4, count * kWords * 4),
                                                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                                  MemoryUsage::DeviceLocal, "outputs");
    uploadToBuffer(context, in, inputs.data(), inputs.size() * 4);
    context.submitAndWait([&](VkCommandBuffer cmd) {
        program.bind(cmd, {DescriptorInfo(in.buffer), DescriptorInfo(out.buffer)}, &count, sizeof(count));
        program.dispatch(cmd, groupCount(count, workgroupSize));
    });
    return downloadBufferAs<uint32_t>(context, out, size_t(count) * kWords);
}

} // namespace

TEST_CASE("compute shaders run at the subgroup size the device reports and the test expects", "[gpu][subgroup]")
{
    Context& context = test::gpuContext();
    uint32_t size = context.info().subgroupSize;
    INFO("device " << context.info().name << " subgroup size " << size);
    REQUIRE(size >= 1);
    REQUIRE((size & (size - 1)) == 0);
    if (const char* expected = std::getenv("ISOSCOPE_EXPECT_SUBGROUP_SIZE"))
        REQUIRE(size == uint32_t(std::atoi(expected)));
    else
        WARN("ISOSCOPE_EXPECT_SUBGROUP_SIZE is not set: the size is not checked against an expectation");

    std::vector<uint32_t> inputs(256, 1);
    std::vector<uint32_t> out = runSubgroupOps(context, inputs, 128);
    for (uint32_t i = 0; i < inputs.size(); ++i) {
        REQUIRE(out[i * kWords + 0] == size);
        REQUIRE(out[i * kWords + 3] == 128 / size);
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("subgroup reduce, scans, ballot, shuffle and workgroup scans match a CPU model", "[gpu][subgroup]")
{
    Context& context = test::gpuContext();
    std::mt19937 random(1234);
    for (uint32_t workgroupSize : {32u, 64u, 128u, 256u}) {
        if (workgroupSize > context.info().maxWorkgroupInvocations())
            continue; // 256 is over lavapipe's limit at subgroup size 4
        for (uint32_t count : {1u, 5u, 127u, 128u, 1000u, 4099u}) {
            INFO("workgroup " << workgroupSize << " count " << count);
            std::vector<uint32_t> inputs(count);
            for (uint32_t& v : inputs)
                v = random() % 1000;
            std::vector<uint32_t> out = runSubgroupOps(context, inputs, workgroupSize);

            // Group lanes by (workgroup, subgroup) as the device reported them.
            std::map<std::pair<uint32_t, uint32_t>, std::vector<Lane>> subgroups;
            for (uint32_t i = 0; i < count; ++i)
                subgroups[{i / workgroupSize, out[i * kWords + 1]}].push_back({i, &out[i * kWords]});
            for (auto& [key, lanes] : subgroups) {
                std::sort(lanes.begin(), lanes.end(),
                          [](const Lane& a, const Lane& b) { return a.out[2] < b.out[2]; });
                uint32_t subgroupSize = lanes.front().out[0];
                // Lanes past `count` are inactive in the output but took part with value 0.
                uint32_t sum = 0, maximum = 0, odd = 0;
                for (const Lane& lane : lanes) {
                    sum += inputs[lane.index];
                    maximum = std::max(maximum, inputs[lane.index]);
                    odd += inputs[lane.index] & 1;
                }
                uint32_t running = 0, oddRunning = 0;
                for (const Lane& lane : lanes) {
                    uint32_t value = inputs[lane.index];
                    REQUIRE(lane.out[4] == sum);
                    REQUIRE(lane.out[6] == running);
                    REQUIRE(lane.out[5] == running + value);
                    REQUIRE(lane.out[7] == odd);
                    REQUIRE(lane.out[8] == oddRunning);
                    REQUIRE(lane.out[11] == maximum);
                    // Shuffle from the next lane: that lane's value, or 0 where it is past `count`.
                    uint32_t nextLane = (lane.out[2] + 1) % subgroupSize;
                    auto next = std::find_if(lanes.begin(), lanes.end(),
                                             [&](const Lane& l) { return l.out[2] == nextLane; });
                    REQUIRE(lane.out[9] == (next != lanes.end() ? inputs[next->index] : 0u));
                    running += value;
                    oddRunning += value & 1;
                }
                REQUIRE(lanes.front().out[10] == inputs[lanes.front().index]);
            }

            // Workgroup scans: exclusive prefix of (value, value & 7) within each
            // workgroup, in the (subgroup, lane) order the helper promises.
            for (uint32_t group = 0; group * workgroupSize < count; ++group) {
                uint32_t begin = group * workgroupSize, end = std::min(count, begin + workgroupSize);
                std::vector<uint32_t> order;
                for (uint32_t i = begin; i < end; ++i)
                    order.push_back(i);
                std::sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
                    return std::pair(out[x * kWords + 1], out[x * kWords + 2]) <
                           std::pair(out[y * kWords + 1], out[y * kWords + 2]);
                });
                uint32_t a = 0, b = 0;
                for (uint32_t i : order) {
                    REQUIRE(out[i * kWords + 12] == a);
                    REQUIRE(out[i * kWords + 13] == b);
                    a += inputs[i];
                    b += inputs[i] & 7;
                }
                for (uint32_t i = begin; i < end; ++i) {
                    REQUIRE(out[i * kWords + 14] == a);
                    REQUIRE(out[i * kWords + 15] == b);
                }
            }
        }
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}
