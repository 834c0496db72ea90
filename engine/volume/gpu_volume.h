#pragma once
// A volume on the GPU: a 3D image that passes sample with hardware trilinear
// filtering or read and write as a storage image, and, where a pass needs
// raw samples, a storage buffer holding the file's bytes.
//
// Image formats keep the data's precision: uint8 → R8_UNORM, uint16 →
// R16_UNORM, int16 → R16_SNORM, float32 → R32_SFLOAT; shaders multiply what
// they read by `valueScale` to get the data's own units (so −32768 in int16
// data reads as −32767). Where the device cannot filter or store a format,
// the image falls back to R32_SFLOAT (converted on upload, valueScale 1).
#include <array>
#include <cstdint>

#include <string>

#include "core/memory.h"
#include "graph/graph_desc.h"
#include "volume/volume.h"

namespace isoscope {

class Context;

struct GpuVolumeUsage {
    bool image = true;
    bool buffer = false;
    // The buffer may be larger than one storage binding: the method binds it
    // in ranges (the block method's value-range pass and the scan method do,
    // by z-slabs).
    bool bufferInRanges = false;
    // The method runs without the buffer (slower): prepareGpuExtraction
    // leaves it out where the device has no room for it.
    bool bufferOptional = false;
    // Direct volume rendering's in-place rotation about y (dvr/rotate_volume.h):
    // the image padded in x and z to one size, a multiple of this (0: no
    // padding), the data at the low corner and zeros around it, and a
    // storage view of unsigned integers of the texel's size, so that moving
    // texels keeps their bits.
    uint32_t squareXZMultiple = 0;
    // That raw storage view without the padding (a streamed slab's planes
    // copied bit for bit by a shader, slab_overlap_copy.h).
    bool rawStorageView = false;
};

class GpuVolume {
public:
    GpuVolume(Context& context, const Volume& volume, GpuVolumeUsage usage = {});
    // From `samples` held elsewhere (volume.byteSize() bytes, laid out as
    // volume.data would be): a host's array uploads without a copy into `data`.
    // Null: nothing is uploaded, the image's contents and layout stay
    // undefined until its first upload writes all of it (a streamed slab's,
    // extract/stream/slab_upload.h, which imports it as undefined).
    GpuVolume(Context& context, const Volume& volume, GpuVolumeUsage usage, const std::byte* samples);
    ~GpuVolume();
    GpuVolume(const GpuVolume&) = delete;
    GpuVolume& operator=(const GpuVolume&) = delete;

    const Image& image() const { return image_; }     // in VK_IMAGE_LAYOUT_GENERAL
    const Buffer& buffer() const { return buffer_; }  // empty unless usage.buffer
    VkSampler linearSampler() const { return sampler_; } // trilinear, clamp to edge, normalized coordinates
    float valueScale() const { return valueScale_; }
    std::array<uint32_t, 3> dims() const { return dims_; } // the data's, without padding
    // The image's: dims() unless padded (GpuVolumeUsage::squareXZMultiple).
    std::array<uint32_t, 3> imageDims() const { return {image_.extent.width, image_.extent.height, image_.extent.depth}; }
    bool padded() const { return imageDims() != dims_; }
    // The R8/R16/R32_UINT view of a padded image (VK_NULL_HANDLE otherwise).
    VkImageView rawStorageView() const { return rawView_; }
    ScalarType type() const { return type_; }
    uint64_t deviceBytes() const { return image_.allocated + buffer_.allocated; }

private:
    Context& context_;
    Image image_;
    Buffer buffer_;
    VkSampler sampler_ = VK_NULL_HANDLE;
    VkImageView rawView_ = VK_NULL_HANDLE;
    float valueScale_ = 1.0f;
    std::array<uint32_t, 3> dims_{};
    ScalarType type_ = ScalarType::Float32;
};

// The volume as render-graph imports. Its upload wrote it and made it
// visible (transfer.cpp), so frames only read it: the image stays in GENERAL,
// which sampling accepts, and needs no barrier between passes.
class RenderGraph;
ResourceId importVolumeImage(RenderGraph& graph, const GpuVolume& volume, const std::string& name = "volume");
ResourceId importVolumeBuffer(RenderGraph& graph, const GpuVolume& volume, const std::string& name = "volume samples");

// Bytes per texel of the image a volume of `type` gets on this device: the
// type's size, or 4 where the device lacks its format (converted to float).
uint32_t volumeTexelBytes(const Context& context, ScalarType type);

// Throws Error, with the numbers, when the device cannot hold the volume
// (image dimensions, buffer range, memory budget) in the requested forms.
void checkVolumeFitsDevice(const Context& context, const Volume& volume, GpuVolumeUsage usage);

} // namespace isoscope
