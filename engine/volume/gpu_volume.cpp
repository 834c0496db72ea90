#include "volume/gpu_volume.h"

#include "graph/render_graph.h"

#include <string>
#include <vector>

#include "core/context.h"
#include "core/transfer.h"
#include "core/vk_check.h"

namespace isoscope {

namespace {

struct ImageFormat {
    VkFormat format;
    float valueScale;
};

ImageFormat nativeFormat(ScalarType type)
{
    switch (type) {
    case ScalarType::UInt8: return {VK_FORMAT_R8_UNORM, 255.0f};
    case ScalarType::UInt16: return {VK_FORMAT_R16_UNORM, 65535.0f};
    case ScalarType::Int16: return {VK_FORMAT_R16_SNORM, 32767.0f};
    case ScalarType::Float32: return {VK_FORMAT_R32_SFLOAT, 1.0f};
    }
    return {VK_FORMAT_R32_SFLOAT, 1.0f};
}

bool canFilterAndStore(VkPhysicalDevice physical, VkFormat format)
{
    VkFormatProperties properties;
    vkGetPhysicalDeviceFormatProperties(physical, format, &properties);
    VkFormatFeatureFlags needed = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT |
                                  VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
    return (properties.optimalTilingFeatures & needed) == needed;
}

ImageFormat chooseFormat(const Context& context, ScalarType type)
{
    ImageFormat native = nativeFormat(type);
    if (canFilterAndStore(context.physicalDevice(), native.format))
        return native;
    return {VK_FORMAT_R32_SFLOAT, 1.0f};
}

// Shaders read 8- and 16-bit samples through 32-bit words: whole words.
uint64_t storageBufferBytes(const Volume& volume) { return (volume.byteSize() + 3) & ~uint64_t(3); }

std::string describe(const Volume& volume)
{
    return "volume " + std::to_string(volume.dims[0]) + "×" + std::to_string(volume.dims[1]) + "×" +
           std::to_string(volume.dims[2]) + " " + std::string(scalarName(volume.type));
}

} // namespace

void checkVolumeFitsDevice(const Context& context, const Volume& volume, GpuVolumeUsage usage)
{
    const DeviceInfo& info = context.info();
    uint64_t needed = 0;
    if (usage.image) {
        for (uint32_t d : volume.dims)
            if (d > info.maxImageDimension3D)
                fail(describe(volume) + " exceeds the largest 3D image of " + info.name + " (" +
                     std::to_string(info.maxImageDimension3D) + " per side): crop or downsample it");
        ImageFormat format = chooseFormat(context, volume.type);
        needed += volume.sampleCount() * (format.format == VK_FORMAT_R32_SFLOAT ? 4 : scalarSize(volume.type));
    }
    if (usage.buffer) {
        uint64_t bytes = storageBufferBytes(volume);
        if (bytes > info.maxStorageBufferRange && !usage.bufferInRanges)
            fail(describe(volume) + " needs a storage buffer of " + formatBytes(bytes) + "; " + info.name +
                 " binds at most " + formatBytes(info.maxStorageBufferRange) +
                 " in one binding: crop or downsample it, or extract with --method scan or --method block, "
                 "which bind it in parts");
        needed += bytes;
    }
    uint64_t available = context.allocator().availableDeviceBytes();
    if (needed > available)
        fail(describe(volume) + " needs " + formatBytes(needed) + ", device budget " +
             formatBytes(context.allocator().deviceBudgetBytes()) + " with " + formatBytes(available) +
             " available on " + info.name + ": crop or downsample it");
}

GpuVolume::GpuVolume(Context& context, const Volume& volume, GpuVolumeUsage usage)
    : context_(context), dims_(volume.dims), type_(volume.type)
{
    checkVolumeFitsDevice(context, volume, usage);
    if (usage.image) {
        ImageFormat format = chooseFormat(context, volume.type);
        valueScale_ = format.valueScale;
        image_ = context.allocator().createImage(
            VK_IMAGE_TYPE_3D, {volume.dims[0], volume.dims[1], volume.dims[2]}, format.format,
            VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
            describe(volume) + " image");
        if (format.format == nativeFormat(volume.type).format) {
            uploadToImage(context, image_, volume.data.data(), volume.data.size(), VK_IMAGE_LAYOUT_GENERAL);
        } else {
            const uint64_t sliceSamples = uint64_t(volume.dims[0]) * volume.dims[1];
            auto convertSlices = [&](uint32_t firstSlice, uint32_t sliceCount, std::byte* destination) {
                float* out = reinterpret_cast<float*>(destination);
                for (uint64_t i = 0; i < sliceCount * sliceSamples; ++i)
                    out[i] = volume.valueAt(firstSlice * sliceSamples + i);
            };
            uploadToImage(context, image_, sizeof(float), convertSlices, VK_IMAGE_LAYOUT_GENERAL);
        }

        VkSamplerCreateInfo samplerInfo{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
        samplerInfo.magFilter = VK_FILTER_LINEAR;
        samplerInfo.minFilter = VK_FILTER_LINEAR;
        samplerInfo.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
        samplerInfo.addressModeU = samplerInfo.addressModeV = samplerInfo.addressModeW =
            VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
        samplerInfo.maxLod = 0.0f;
        VK_CHECK(vkCreateSampler(context.device(), &samplerInfo, nullptr, &sampler_));
    }
    if (usage.buffer) {
        // A failure here (out of device memory, a lost device) skips the
        // destructor: the sampler made above is destroyed on the way out, or
        // the device is destroyed with it alive (found by fault injection).
        try {
            buffer_ = context.allocator().createBuffer(
                storageBufferBytes(volume), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                MemoryUsage::DeviceLocal, describe(volume) + " buffer");
            uploadToBuffer(context, buffer_, volume.data.data(), volume.data.size());
        } catch (...) {
            vkDestroySampler(context.device(), sampler_, nullptr);
            throw;
        }
    }
}

GpuVolume::~GpuVolume() { vkDestroySampler(context_.device(), sampler_, nullptr); }

ResourceId importVolumeImage(RenderGraph& graph, const GpuVolume& volume, const std::string& name)
{
    const Image& image = volume.image();
    GraphImage graphImage{image.image, image.view, image.format, {image.extent.width, image.extent.height}};
    return graph.importImage(name, graphImage, {VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, VK_IMAGE_LAYOUT_GENERAL});
}

ResourceId importVolumeBuffer(RenderGraph& graph, const GpuVolume& volume, const std::string& name)
{
    if (!volume.buffer())
        fail("the volume's samples were not uploaded as a buffer (engine bug: ask for GpuVolumeUsage::buffer)");
    return graph.importBuffer(name, volume.buffer().buffer);
}

} // namespace isoscope
