// A volume uploaded to the GPU reads back the CPU's samples: exactly through
// texel fetches and the raw buffer, within filtering precision through
// trilinear sampling; a volume the device cannot hold is refused with numbers.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <functional>
#include <random>

#include "core/barrier.h"
#include "core/context.h"
#include "core/shader.h"
#include "core/transfer.h"
#include "gpu_test_context.h"
#include "volume/gpu_volume.h"

using namespace isoscope;

namespace {

Volume randomVolume(ScalarType type, std::array<uint32_t, 3> dims, std::mt19937& random)
{
    Volume volume;
    volume.dims = dims;
    volume.type = type;
    volume.source = "random";
    volume.data.resize(volume.byteSize());
    for (uint64_t i = 0; i < volume.sampleCount(); ++i) {
        switch (type) {
        case ScalarType::UInt8: volume.data[i] = std::byte(random() % 256); break;
        case ScalarType::UInt16: {
            uint16_t v = uint16_t(random() % 65536);
            std::memcpy(&volume.data[2 * i], &v, 2);
            break;
        }
        case ScalarType::Int16: {
            int16_t v = int16_t(int(random() % 65535) - 32767); // −32768 has no exact SNORM image
            std::memcpy(&volume.data[2 * i], &v, 2);
            break;
        }
        case ScalarType::Float32: {
            float v = float(random() % 100000) / 37.0f - 1000.0f;
            std::memcpy(&volume.data[4 * i], &v, 4);
            break;
        }
        }
    }
    computeStats(volume);
    return volume;
}

double trilinear(const Volume& v, double x, double y, double z)
{
    auto at = [&](int i, int j, int k) {
        i = std::clamp(i, 0, int(v.dims[0]) - 1);
        j = std::clamp(j, 0, int(v.dims[1]) - 1);
        k = std::clamp(k, 0, int(v.dims[2]) - 1);
        return double(v.value(uint32_t(i), uint32_t(j), uint32_t(k)));
    };
    int i = int(std::floor(x)), j = int(std::floor(y)), k = int(std::floor(z));
    double fx = x - i, fy = y - j, fz = z - k;
    double result = 0.0;
    for (int c = 0; c < 8; ++c) {
        double w = ((c & 1) ? fx : 1 - fx) * ((c & 2) ? fy : 1 - fy) * ((c & 4) ? fz : 1 - fz);
        result += w * at(i + (c & 1), j + ((c >> 1) & 1), k + ((c >> 2) & 1));
    }
    return result;
}

// Runs tests/volume_probe at `points` (x, y, z, 0 in voxels) after the
// commands `before` records; per point: texel fetch, trilinear sample, buffer
// read, 0.
std::vector<float> probeVolume(Context& context, const ComputeProgram& probe, const GpuVolume& gpu,
                               const std::vector<float>& points,
                               const std::function<void(VkCommandBuffer)>& before = {})
{
    uint32_t count = uint32_t(points.size() / 4);
    Buffer pointBuffer = context.allocator().createBuffer(
        points.size() * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
        MemoryUsage::DeviceLocal, "points");
    Buffer resultBuffer = context.allocator().createBuffer(
        points.size() * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
        MemoryUsage::DeviceLocal, "results");
    uploadToBuffer(context, pointBuffer, points.data(), points.size() * 4);
    std::array<uint32_t, 3> dims = gpu.dims();
    struct {
        uint32_t dims[4];
        float valueScale;
        uint32_t count;
    } parameters{{dims[0], dims[1], dims[2], uint32_t(gpu.type())}, gpu.valueScale(), count};
    context.submitAndWait([&](VkCommandBuffer cmd) {
        if (before)
            before(cmd);
        probe.bind(cmd,
                   {DescriptorInfo(gpu.linearSampler(), gpu.image().view, VK_IMAGE_LAYOUT_GENERAL),
                    DescriptorInfo(gpu.buffer().buffer), DescriptorInfo(pointBuffer.buffer),
                    DescriptorInfo(resultBuffer.buffer)},
                   &parameters, sizeof(parameters));
        probe.dispatch(cmd, groupCount(count, probe.localSize()[0]));
    });
    return downloadBufferAs<float>(context, resultBuffer, points.size());
}

std::vector<float> everyVoxel(std::array<uint32_t, 3> dims)
{
    std::vector<float> points;
    for (uint32_t z = 0; z < dims[2]; ++z)
        for (uint32_t y = 0; y < dims[1]; ++y)
            for (uint32_t x = 0; x < dims[0]; ++x)
                points.insert(points.end(), {float(x), float(y), float(z), 0.0f});
    return points;
}

} // namespace

TEST_CASE("a GPU volume returns the CPU's samples through its image and its buffer, for every scalar type",
          "[gpu][volume]")
{
    Context& context = test::gpuContext();
    std::mt19937 random(7);
    ComputeProgram probe(context, loadShader("tests/volume_probe"));
    for (ScalarType type : {ScalarType::UInt8, ScalarType::UInt16, ScalarType::Int16, ScalarType::Float32}) {
        INFO("type " << scalarName(type));
        Volume volume = randomVolume(type, {7, 5, 3}, random);
        GpuVolume gpu(context, volume, {true, true});

        std::vector<float> points = everyVoxel(volume.dims);
        uint32_t exactCount = uint32_t(points.size() / 4);
        for (int n = 0; n < 64; ++n) // fractional points for filtering
            points.insert(points.end(), {float(random() % 600) / 100.0f, float(random() % 400) / 100.0f,
                                         float(random() % 200) / 100.0f, 0.0f});
        uint32_t count = uint32_t(points.size() / 4);
        std::vector<float> results = probeVolume(context, probe, gpu, points);

        for (uint32_t p = 0; p < count; ++p) {
            float x = points[4 * p], y = points[4 * p + 1], z = points[4 * p + 2];
            float expected = volume.value(uint32_t(x), uint32_t(y), uint32_t(z));
            // The buffer holds the file's bytes: exact. The image goes through a
            // normalized format and back: exact to float rounding.
            REQUIRE(results[4 * p + 2] == expected);
            REQUIRE(results[4 * p + 0] == Approx(expected).margin(1e-3).epsilon(1e-6));
            if (p < exactCount) {
                REQUIRE(results[4 * p + 1] == Approx(expected).margin(1e-2).epsilon(1e-5));
            } else {
                // Filtering weights have limited precision (8 fraction bits is
                // the Vulkan minimum), rounded once per axis: allow 3/256 of
                // the value range (nearest sampling would miss by up to 1/2).
                double tolerance = 3.0 * (volume.stats.max - volume.stats.min) / 256.0 + 1e-3;
                REQUIRE(std::abs(results[4 * p + 1] - trilinear(volume, x, y, z)) <= tolerance);
            }
        }
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("a volume larger than the device can hold is refused with the numbers", "[gpu][volume]")
{
    Context& context = test::gpuContext();
    Volume huge;
    huge.type = ScalarType::Float32;
    uint32_t side = std::min<uint32_t>(context.info().maxImageDimension3D, 65535);
    huge.dims = {side, side, side};
    huge.source = "huge";
    // No samples are needed: the check comes before any upload.
    if (huge.byteSize() <= context.allocator().deviceBudgetBytes())
        WARN("device holds " << huge.byteSize() << " bytes; only the too-wide case is checked");
    else
        REQUIRE_THROWS_WITH(GpuVolume(context, huge), Catch::Contains("needs") && Catch::Contains("budget"));

    huge.dims = {context.info().maxImageDimension3D + 1, 2, 2};
    REQUIRE_THROWS_WITH(GpuVolume(context, huge), Catch::Contains("largest 3D image"));
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("a GPU volume image takes stores through its storage view and samples them back", "[gpu][volume]")
{
    Context& context = test::gpuContext();
    if (!context.info().features.storageImageWriteWithoutFormat) {
        WARN("skipped: " << context.info().name << " cannot store to images without a format qualifier");
        return;
    }
    std::mt19937 random(11);
    ComputeProgram store(context, loadShader("tests/volume_store"));
    ComputeProgram probe(context, loadShader("tests/volume_probe"));
    for (ScalarType type : {ScalarType::UInt8, ScalarType::UInt16, ScalarType::Int16, ScalarType::Float32}) {
        INFO("type " << scalarName(type));
        Volume volume = randomVolume(type, {9, 6, 5}, random);
        GpuVolume gpu(context, volume, {true, true});
        std::vector<float> points = everyVoxel(volume.dims);
        uint32_t count = uint32_t(points.size() / 4);
        struct {
            uint32_t dims[4];
            float valueScale;
        } storeParameters{{9, 6, 5, 0}, gpu.valueScale()};
        std::vector<float> results = probeVolume(context, probe, gpu, points, [&](VkCommandBuffer cmd) {
            store.bind(cmd, {DescriptorInfo(VK_NULL_HANDLE, gpu.image().view, VK_IMAGE_LAYOUT_GENERAL)},
                       &storeParameters, sizeof(storeParameters));
            store.dispatch(cmd, groupCount(9, 4), groupCount(6, 4), groupCount(5, 4));
            memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                          VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
        });
        for (uint32_t p = 0; p < count; ++p) {
            float expected = points[4 * p] + 2 * points[4 * p + 1] + 3 * points[4 * p + 2];
            REQUIRE(results[4 * p] == Approx(expected).margin(1e-3));
        }
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}
