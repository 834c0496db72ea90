#include "core/descriptor_limits.h"

namespace isoscope {

namespace {

// Descriptors by the limit they count against, as VkPhysicalDeviceLimits
// defines each maxPerStageDescriptor*: a combined image sampler is both a
// sampler and a sampled image, a texel buffer counts as an image, and every
// kind but a plain sampler is a resource.
struct DescriptorCounts {
    uint32_t samplers = 0;
    uint32_t uniformBuffers = 0;
    uint32_t storageBuffers = 0;
    uint32_t sampledImages = 0;
    uint32_t storageImages = 0;
    uint32_t resources = 0;
    uint32_t combinedImageSamplers = 0; // for the message: they count twice
    uint32_t total = 0;
};

DescriptorCounts countDescriptors(std::span<const VkDescriptorType> types)
{
    DescriptorCounts counts;
    for (VkDescriptorType type : types) {
        ++counts.total;
        switch (type) {
        case VK_DESCRIPTOR_TYPE_SAMPLER: ++counts.samplers; continue; // not a resource
        case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
            ++counts.samplers;
            ++counts.sampledImages;
            ++counts.combinedImageSamplers;
            break;
        case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
        case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER: ++counts.sampledImages; break;
        case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
        case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: ++counts.storageImages; break;
        case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
        case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC: ++counts.uniformBuffers; break;
        case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
        case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC: ++counts.storageBuffers; break;
        case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT: break; // a resource only
        default: continue; // kinds with limits of their own (acceleration structures, inline uniform blocks)
        }
        ++counts.resources;
    }
    return counts;
}

} // namespace

std::string descriptorLimitsProblem(const std::string& program, std::span<const VkDescriptorType> types,
                                    const DeviceInfo& info, uint32_t colorAttachments)
{
    const DescriptorCounts counts = countDescriptors(types);
    const std::string combined =
        counts.combinedImageSamplers ? " (" + std::to_string(counts.combinedImageSamplers) +
                                           " of them combined image samplers)"
                                     : "";
    const std::string attachments =
        colorAttachments ? " (" + std::to_string(colorAttachments) + " of them color attachments)" : "";
    const struct {
        uint32_t count;
        uint32_t limit;
        std::string what;
        const char* scope;
        const char* name;
    } checks[] = {
        {counts.storageBuffers, info.maxPerStageDescriptorStorageBuffers, "storage buffers", "per shader stage",
         "maxPerStageDescriptorStorageBuffers"},
        {counts.uniformBuffers, info.maxPerStageDescriptorUniformBuffers, "uniform buffers", "per shader stage",
         "maxPerStageDescriptorUniformBuffers"},
        {counts.sampledImages, info.maxPerStageDescriptorSampledImages, "sampled images" + combined,
         "per shader stage", "maxPerStageDescriptorSampledImages"},
        {counts.storageImages, info.maxPerStageDescriptorStorageImages, "storage images", "per shader stage",
         "maxPerStageDescriptorStorageImages"},
        {counts.samplers, info.maxPerStageDescriptorSamplers, "samplers" + combined, "per shader stage",
         "maxPerStageDescriptorSamplers"},
        {counts.resources + colorAttachments, info.maxPerStageResources, "resources" + attachments,
         "per shader stage", "maxPerStageResources"},
        {counts.total, info.maxPushDescriptors, "descriptors", "in one push-descriptor set", "maxPushDescriptors"},
    };
    const std::string device = info.name.empty() ? "this device" : info.name;
    std::string problems;
    for (const auto& check : checks)
        if (check.count > check.limit)
            problems += std::string(problems.empty() ? "" : " and ") + std::to_string(check.count) + " " + check.what +
                        " where " + device + " allows " + std::to_string(check.limit) + " " + check.scope + " (" +
                        check.name + ")";
    if (problems.empty())
        return problems;
    // Each shader has one layout, fixed by its GLSL: nothing can be set to
    // bind fewer, so the way out is a device with higher limits.
    return program + " binds " + problems + ": choose another device with ISOSCOPE_DEVICE (`isoscope info` lists them)";
}

} // namespace isoscope
