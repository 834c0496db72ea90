// The Vulkan core: shader reflection, GPU timestamps, the pipeline cache and
// the allocator's byte counts and the descriptor limits read from the device.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <span>
#include <stdlib.h>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "core/barrier.h"
#include "core/context.h"
#include "core/gpu_timer.h"
#include "core/pipeline_cache.h"
#include "core/shader.h"
#include "core/transfer.h"
#include "gpu_test_context.h"

using namespace isoscope;

TEST_CASE("shader layouts come from the SPIR-V: bindings, push constants, workgroup size, constants", "[gpu][core]")
{
    Shader shader = loadShader("tests/subgroup_ops");
    REQUIRE(shader.stage == VK_SHADER_STAGE_COMPUTE_BIT);
    REQUIRE(shader.bindings.size() == 2);
    REQUIRE(shader.bindings[0].type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
    REQUIRE(shader.bindings[1].type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
    REQUIRE(shader.pushConstantSize == 4);
    REQUIRE(shader.localSize[0] == 128); // the default of WORKGROUP_SIZE
    REQUIRE(shader.localSizeConstantIds[0] == 1);
    auto named = [&](const char* name) {
        return std::find_if(shader.specConstants.begin(), shader.specConstants.end(),
                            [&](const SpecConstant& c) { return c.name == name; }) != shader.specConstants.end();
    };
    REQUIRE(named("SUBGROUP_SIZE"));
    REQUIRE(named("WORKGROUP_SIZE"));

    Shader probe = loadShader("tests/volume_probe");
    REQUIRE(probe.bindings.size() == 4);
    REQUIRE(probe.bindings[0].type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER);
    REQUIRE(probe.pushConstantSize == 24);
    REQUIRE(probe.localSize[0] == 64);

    REQUIRE_THROWS_WITH(loadShader("no/such/shader"), Catch::Contains("no shader named"));

    Context& context = test::gpuContext();
    ComputeProgram program(context, shader, {{"WORKGROUP_SIZE", 64}});
    REQUIRE(program.localSize()[0] == 64);
    REQUIRE_THROWS_WITH(ComputeProgram(context, shader, {{"NOT_A_CONSTANT", 1}}), Catch::Contains("NOT_A_CONSTANT"));
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("ISOSCOPE_SHADER_DIR replaces a built-in shader with a SPIR-V file, and rejects files that are not SPIR-V",
          "[gpu][core]")
{
    namespace fs = std::filesystem;
    fs::path dir = fs::temp_directory_path() / ("isoscope-shader-dir-" + std::to_string(getpid()));
    fs::create_directories(dir / "tests");
    // volume_probe's words under write_triangle's name.
    std::span<const uint32_t> probe = loadShader("tests/volume_probe").spirv;
    std::ofstream(dir / "tests" / "write_triangle.spv", std::ios::binary)
        .write(reinterpret_cast<const char*>(probe.data()), std::streamsize(probe.size_bytes()));
    std::ofstream(dir / "tests" / "subgroup_ops.spv", std::ios::binary) << "abc";

    size_t builtInBindings = loadShader("tests/write_triangle").bindings.size();
    ::setenv("ISOSCOPE_SHADER_DIR", dir.c_str(), 1);
    Shader replaced = loadShader("tests/write_triangle");
    bool rejected = false;
    try {
        loadShader("tests/subgroup_ops");
    } catch (const std::exception& e) {
        rejected = std::string(e.what()).find("is not SPIR-V") != std::string::npos;
    }
    Shader untouched = loadShader("tests/volume_probe"); // no file for it: the built-in one
    ::unsetenv("ISOSCOPE_SHADER_DIR");
    fs::remove_all(dir);

    REQUIRE(replaced.bindings.size() == 4);
    REQUIRE(replaced.bindings.size() != builtInBindings);
    REQUIRE(replaced.bindings[0].type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER);
    REQUIRE(replaced.localSize[0] == 64);
    REQUIRE(rejected);
    REQUIRE(untouched.bindings.size() == 4);
    REQUIRE(loadShader("tests/write_triangle").bindings.size() == builtInBindings); // unset again
}

TEST_CASE("GPU timestamps name each scope and fit inside the wall-clock time of the submission", "[gpu][core]")
{
    Context& context = test::gpuContext();
    GpuTimer timer(context);
    ComputeProgram program(context, loadShader("tests/subgroup_ops"));
    uint32_t count = 1 << 16;
    Buffer in = context.allocator().createBuffer(count * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                                 VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUsage::DeviceLocal, "in");
    Buffer out = context.allocator().createBuffer(count * 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                                  MemoryUsage::DeviceLocal, "out");
    fillBuffer(context, in, 3);
    auto start = std::chrono::steady_clock::now();
    context.submitAndWait([&](VkCommandBuffer cmd) {
        timer.reset(cmd);
        uint32_t first = timer.begin(cmd, "first");
        program.bind(cmd, {DescriptorInfo(in.buffer), DescriptorInfo(out.buffer)}, &count, 4);
        program.dispatch(cmd, groupCount(count, program.localSize()[0]));
        timer.end(cmd, first);
        memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
        uint32_t second = timer.begin(cmd, "second");
        program.dispatch(cmd, groupCount(count, program.localSize()[0]));
        timer.end(cmd, second);
    });
    double wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    auto times = timer.read();
    REQUIRE(times.size() == 2);
    REQUIRE(times[0].first == "first");
    REQUIRE(times[1].first == "second");
    for (auto& [name, ms] : times) {
        INFO(name << " " << ms << " ms, wall " << wallMs << " ms");
        REQUIRE(ms > 0.0);
        REQUIRE(ms < wallMs);
    }
    REQUIRE(times[0].second + times[1].second < wallMs);
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("the pipeline cache is written per device and ignores files it cannot trust", "[gpu][core]")
{
    Context& context = test::gpuContext();
    // One folder per process: ctest runs the subgroup sizes side by side.
    std::filesystem::path folder =
        std::filesystem::path(ISOSCOPE_TEST_TMP_DIR) / ("pipeline-cache-" + std::to_string(getpid()));
    std::filesystem::remove_all(folder);
    std::filesystem::path file;
    {
        PipelineCache cache(context.device(), context.info(), folder);
        file = cache.file();
    }
    REQUIRE(std::filesystem::exists(file));
    std::ifstream in(file, std::ios::binary);
    VkPipelineCacheHeaderVersionOne header{};
    in.read(reinterpret_cast<char*>(&header), sizeof(header));
    REQUIRE(header.vendorID == context.info().vendorId);
    REQUIRE(std::equal(std::begin(header.pipelineCacheUUID), std::end(header.pipelineCacheUUID),
                       context.info().pipelineCacheUuid.begin()));
    in.close();

    // A truncated or foreign file is ignored and replaced, never handed to the driver.
    std::ofstream(file, std::ios::binary | std::ios::trunc) << "not a pipeline cache";
    { PipelineCache cache(context.device(), context.info(), folder); }
    REQUIRE(std::filesystem::file_size(file) >= sizeof(VkPipelineCacheHeaderVersionOne));
    std::filesystem::remove_all(folder);
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("the allocator counts current and peak device bytes", "[gpu][core]")
{
    Context& context = test::gpuContext();
    Allocator& allocator = context.allocator();
    uint64_t before = allocator.currentDeviceBytes();
    allocator.resetPeak();
    {
        Buffer a = allocator.createBuffer(1 << 20, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage::DeviceLocal, "a");
        REQUIRE(allocator.currentDeviceBytes() == before + a.allocated);
        REQUIRE(a.allocated >= (1u << 20));
        Buffer b = allocator.createBuffer(1 << 18, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage::DeviceLocal, "b");
        REQUIRE(allocator.peakDeviceBytes() == before + a.allocated + b.allocated);
    }
    REQUIRE(allocator.currentDeviceBytes() == before);
    REQUIRE(allocator.peakDeviceBytes() >= before + (1u << 20) + (1u << 18));
    REQUIRE(allocator.deviceBudgetBytes() > 0);
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("the device's descriptor limits are read from it, each at or above Vulkan's minimum", "[gpu][core]")
{
    const DeviceInfo& info = test::gpuContext().info();
    const DeviceInfo minimum; // a DeviceInfo never queried holds Vulkan's minimums
    INFO(toJson(info)["limits"].dump());
    CHECK(info.maxPerStageDescriptorStorageBuffers >= minimum.maxPerStageDescriptorStorageBuffers);
    CHECK(info.maxPerStageDescriptorUniformBuffers >= minimum.maxPerStageDescriptorUniformBuffers);
    CHECK(info.maxPerStageDescriptorSampledImages >= minimum.maxPerStageDescriptorSampledImages);
    CHECK(info.maxPerStageDescriptorStorageImages >= minimum.maxPerStageDescriptorStorageImages);
    CHECK(info.maxPerStageDescriptorSamplers >= minimum.maxPerStageDescriptorSamplers);
    CHECK(info.maxPerStageResources >= minimum.maxPerStageResources);
    CHECK(info.maxPushDescriptors >= minimum.maxPushDescriptors); // 0 if the properties chain lost it
    REQUIRE_NO_VALIDATION_MESSAGES();
}
