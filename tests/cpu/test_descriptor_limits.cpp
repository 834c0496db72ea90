// Per-stage descriptor limits (core/descriptor_limits.h): each limit counts
// the descriptor types VkPhysicalDeviceLimits says it counts, admits exactly
// its value and refuses one more with a message that names it.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "core/descriptor_limits.h"
#include "core/shader.h"

using namespace isoscope;

namespace {

std::vector<VkDescriptorType> repeated(VkDescriptorType type, uint32_t count)
{
    return std::vector<VkDescriptorType>(count, type);
}

std::vector<VkDescriptorType> operator+(std::vector<VkDescriptorType> a, const std::vector<VkDescriptorType>& b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

std::string problem(const std::vector<VkDescriptorType>& types, const DeviceInfo& info, uint32_t colorAttachments = 0)
{
    return descriptorLimitsProblem("shader test", types, info, colorAttachments);
}

} // namespace

TEST_CASE("a DeviceInfo that was never queried has Vulkan's guaranteed minimum descriptor limits", "[descriptors]")
{
    DeviceInfo minimum;
    CHECK(minimum.maxPerStageDescriptorStorageBuffers == 4);
    CHECK(minimum.maxPerStageDescriptorUniformBuffers == 12);
    CHECK(minimum.maxPerStageDescriptorSampledImages == 16);
    CHECK(minimum.maxPerStageDescriptorStorageImages == 4);
    CHECK(minimum.maxPerStageDescriptorSamplers == 16);
    CHECK(minimum.maxPerStageResources == 128);
    CHECK(minimum.maxPushDescriptors == 32);
}

TEST_CASE("each per-stage limit admits exactly its count and refuses one more, with both numbers and its name",
          "[descriptors]")
{
    const DeviceInfo minimum; // every limit at Vulkan's minimum: 4, 12, 16, 4, 16, 128, 32
    struct Case {
        std::vector<VkDescriptorType> atLimit;
        VkDescriptorType oneMore;
        const char* refusal;
    };
    const Case cases[] = {
        {repeated(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2) + repeated(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 2),
         VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC,
         "binds 5 storage buffers where this device allows 4 per shader stage (maxPerStageDescriptorStorageBuffers)"},
        {repeated(VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 6) + repeated(VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 6),
         VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
         "binds 13 uniform buffers where this device allows 12 per shader stage (maxPerStageDescriptorUniformBuffers)"},
        {repeated(VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 8) + repeated(VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 8),
         VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER,
         "binds 17 sampled images where this device allows 16 per shader stage (maxPerStageDescriptorSampledImages)"},
        {repeated(VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 2) + repeated(VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 2),
         VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
         "binds 5 storage images where this device allows 4 per shader stage (maxPerStageDescriptorStorageImages)"},
        {repeated(VK_DESCRIPTOR_TYPE_SAMPLER, 16), VK_DESCRIPTOR_TYPE_SAMPLER,
         "binds 17 samplers where this device allows 16 per shader stage (maxPerStageDescriptorSamplers)"},
    };
    for (const Case& c : cases) {
        INFO(c.refusal);
        CHECK(problem(c.atLimit, minimum).empty());
        const std::string message = problem(c.atLimit + repeated(c.oneMore, 1), minimum);
        CHECK(message == std::string("shader test ") + c.refusal +
                             ": choose another device with ISOSCOPE_DEVICE (`isoscope info` lists them)");
    }
}

TEST_CASE("every descriptor but a sampler is a per-stage resource, and so is a fragment stage's color attachment",
          "[descriptors]")
{
    DeviceInfo info; // maxPerStageResources 128; the other limits out of the way
    info.maxPerStageDescriptorStorageBuffers = 1000;
    info.maxPushDescriptors = 1000;
    const auto buffers = repeated(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 128);
    CHECK(problem(buffers, info).empty());
    CHECK(problem(buffers + repeated(VK_DESCRIPTOR_TYPE_SAMPLER, 16), info).empty());
    CHECK(problem(buffers + repeated(VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1), info) ==
          "shader test binds 129 resources where this device allows 128 per shader stage (maxPerStageResources): "
          "choose another device with ISOSCOPE_DEVICE (`isoscope info` lists them)");

    const auto fewer = repeated(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 127);
    CHECK(problem(fewer, info, 1).empty());
    CHECK_THAT(problem(buffers, info, 1),
               Catch::Contains("binds 129 resources (1 of them color attachments) where this device allows 128 per "
                               "shader stage (maxPerStageResources)"));
}

TEST_CASE("a combined image sampler counts against both the sampled-image and the sampler limit", "[descriptors]")
{
    const DeviceInfo minimum; // 16 sampled images, 16 samplers
    CHECK(problem(repeated(VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 16), minimum).empty());
    const std::string both = problem(repeated(VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 17), minimum);
    CHECK_THAT(both, Catch::Contains("binds 17 sampled images (17 of them combined image samplers) where this "
                                     "device allows 16 per shader stage (maxPerStageDescriptorSampledImages) and "
                                     "17 samplers (17 of them combined image samplers) where this device allows "
                                     "16 per shader stage (maxPerStageDescriptorSamplers)"));

    // 8 combined with 8 of either kind fills both limits; one more of either
    // kind exceeds only its own.
    const auto full = repeated(VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 8) +
                      repeated(VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 8) + repeated(VK_DESCRIPTOR_TYPE_SAMPLER, 8);
    CHECK(problem(full, minimum).empty());
    const std::string images = problem(full + repeated(VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1), minimum);
    CHECK_THAT(images, Catch::Contains("17 sampled images (8 of them combined image samplers)"));
    CHECK_THAT(images, !Catch::Contains("maxPerStageDescriptorSamplers"));
    const std::string samplers = problem(full + repeated(VK_DESCRIPTOR_TYPE_SAMPLER, 1), minimum);
    CHECK_THAT(samplers, Catch::Contains("17 samplers (8 of them combined image samplers)"));
    CHECK_THAT(samplers, !Catch::Contains("maxPerStageDescriptorSampledImages"));
}

TEST_CASE("a push-descriptor set holds at most maxPushDescriptors descriptors of every kind together", "[descriptors]")
{
    const DeviceInfo minimum; // 32 push descriptors
    // 32 descriptors, each kind within its own per-stage limit.
    const auto full = repeated(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4) + repeated(VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 12) +
                      repeated(VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 12) +
                      repeated(VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 4);
    REQUIRE(full.size() == 32);
    CHECK(problem(full, minimum).empty());
    CHECK(problem(full + repeated(VK_DESCRIPTOR_TYPE_SAMPLER, 1), minimum) ==
          "shader test binds 33 descriptors where this device allows 32 in one push-descriptor set "
          "(maxPushDescriptors): choose another device with ISOSCOPE_DEVICE (`isoscope info` lists them)");
}

TEST_CASE("the scan method's list shader binds 9 storage buffers: refused at Vulkan's minimum of 4, named by device",
          "[descriptors]")
{
    Shader list = loadShader("extract/scan/list");
    std::vector<VkDescriptorType> types;
    for (const ShaderBinding& binding : list.bindings)
        types.push_back(binding.type);
    DeviceInfo info;
    info.name = "a small GPU";
    CHECK(descriptorLimitsProblem("shader " + list.name, types, info) ==
          "shader extract/scan/list binds 9 storage buffers where a small GPU allows 4 per shader stage "
          "(maxPerStageDescriptorStorageBuffers): choose another device with ISOSCOPE_DEVICE (`isoscope info` "
          "lists them)");
    info.maxPerStageDescriptorStorageBuffers = 9;
    CHECK(descriptorLimitsProblem("shader " + list.name, types, info).empty());
}
