#include "volume/gpu_volume.h"

#include "graph/render_graph.h"

#include <algorithm>
#include <cstring>
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

// The unsigned format of a texel's size, for moving texels bit for bit.
VkFormat rawFormat(VkFormat format)
{
    switch (format) {
    case VK_FORMAT_R8_UNORM: return VK_FORMAT_R8_UINT;
    case VK_FORMAT_R16_UNORM:
    case VK_FORMAT_R16_SNORM: return VK_FORMAT_R16_UINT;
    default: return VK_FORMAT_R32_UINT;
    }
}

// x and z rounded up to one size, a multiple of `multiple`.
VkExtent3D imageExtent(const Volume& volume, uint32_t multiple)
{
    if (multiple == 0)
        return {volume.dims[0], volume.dims[1], volume.dims[2]};
    uint32_t side = std::max(volume.dims[0], volume.dims[2]);
    side = (side + multiple - 1) / multiple * multiple;
    return {side, volume.dims[1], side};
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
        VkExtent3D extent = imageExtent(volume, usage.squareXZMultiple);
        needed += uint64_t(extent.width) * extent.height * extent.depth * (format.format == VK_FORMAT_R32_SFLOAT ? 4 : scalarSize(volume.type));
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

uint32_t volumeTexelBytes(const Context& context, ScalarType type)
{
    return chooseFormat(context, type).format == nativeFormat(type).format ? uint32_t(scalarSize(type)) : 4u;
}

GpuVolume::GpuVolume(Context& context, const Volume& volume, GpuVolumeUsage usage)
    : GpuVolume(context, volume, usage, volume.data.data())
{
}

GpuVolume::GpuVolume(Context& context, const Volume& volume, GpuVolumeUsage usage, const std::byte* samples)
    : context_(context), dims_(volume.dims), type_(volume.type)
{
    checkVolumeFitsDevice(context, volume, usage);
    const size_t sampleBytes = size_t(volume.byteSize());
    if (usage.image) {
        ImageFormat format = chooseFormat(context, volume.type);
        valueScale_ = format.valueScale;
        VkExtent3D extent = imageExtent(volume, usage.squareXZMultiple);
        if (usage.squareXZMultiple && std::max(extent.width, extent.depth) > context.info().maxImageDimension3D)
            fail(describe(volume) + " padded to " + std::to_string(extent.width) + " in x and z exceeds the largest 3D "
                 "image of " + context.info().name + " (" + std::to_string(context.info().maxImageDimension3D) +
                 " per side): render without rotation");
        VkFormatProperties rawProperties;
        vkGetPhysicalDeviceFormatProperties(context.physicalDevice(), rawFormat(format.format), &rawProperties);
        // Without storage of its raw format, a slab's planes are copied by vkCmdCopyImage instead.
        const bool rawStorable = rawProperties.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT;
        const bool rawView = usage.squareXZMultiple || (usage.rawStorageView && rawStorable);
        image_ = context.allocator().createImage(
            VK_IMAGE_TYPE_3D, extent, format.format,
            VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
            describe(volume) + " image",
            rawView ? VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT : 0);
        const bool native = format.format == nativeFormat(volume.type).format;
        if (!samples) {
            // Written later, whole (a streamed slab's upload): contents and layout undefined until then.
        } else if (native && !usage.squareXZMultiple) {
            uploadToImage(context, image_, samples, sampleBytes, VK_IMAGE_LAYOUT_GENERAL);
        } else {
            // Row by row: converted to float where the device lacks the
            // native format, zeros in the padding.
            const size_t texel = native ? scalarSize(volume.type) : sizeof(float);
            const uint64_t rowSamples = volume.dims[0], dataSlice = rowSamples * volume.dims[1];
            const uint64_t imageRow = extent.width, imageSlice = imageRow * extent.height;
            auto writeSlices = [&](uint32_t firstSlice, uint32_t sliceCount, std::byte* destination) {
                std::memset(destination, 0, sliceCount * imageSlice * texel);
                for (uint32_t z = firstSlice; z < firstSlice + sliceCount && z < volume.dims[2]; ++z)
                    for (uint32_t y = 0; y < volume.dims[1]; ++y) {
                        uint64_t from = z * dataSlice + y * rowSamples;
                        std::byte* to = destination + ((z - firstSlice) * imageSlice + y * imageRow) * texel;
                        if (native) {
                            std::memcpy(to, samples + from * texel, rowSamples * texel);
                        } else {
                            float* out = reinterpret_cast<float*>(to);
                            for (uint64_t x = 0; x < rowSamples; ++x)
                                out[x] = sampleValue(samples, volume.type, from + x);
                        }
                    }
            };
            uploadToImage(context, image_, texel, writeSlices, VK_IMAGE_LAYOUT_GENERAL);
        }
        if (rawView) {
            VkImageViewCreateInfo viewInfo{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
            viewInfo.image = image_.image;
            viewInfo.viewType = VK_IMAGE_VIEW_TYPE_3D;
            viewInfo.format = rawFormat(format.format);
            viewInfo.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
            VK_CHECK(vkCreateImageView(context.device(), &viewInfo, nullptr, &rawView_));
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
                storageBufferBytes(volume),
                VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                MemoryUsage::DeviceLocal, describe(volume) + " buffer");
            if (samples)
                uploadToBuffer(context, buffer_, samples, sampleBytes);
        } catch (...) {
            vkDestroySampler(context.device(), sampler_, nullptr);
            vkDestroyImageView(context.device(), rawView_, nullptr);
            throw;
        }
    }
}

GpuVolume::~GpuVolume()
{
    vkDestroySampler(context_.device(), sampler_, nullptr);
    vkDestroyImageView(context_.device(), rawView_, nullptr);
}

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
