#pragma once
// Moving data between the CPU and device-local resources through staging
// buffers. Each call submits and waits: these are for set-up and read-back
// outside a frame, never inside one. Uploads go through one staging buffer of
// at most kStagingBytes, reused chunk after chunk, so a volume of many GiB
// never needs as much host-visible memory again.
//
// The documented exception to "no barrier outside engine/graph/": each call
// is a submission of its own around one copy, outside every frame, so it
// orders the copy after all earlier work and makes its result visible to all
// later work itself (core/barrier.h), rather than importing the resource
// into a graph for a single copy.
#include <cstddef>
#include <cstring>
#include <functional>
#include <vector>

#include <volk.h>

namespace isoscope {

class Context;
struct Buffer;
struct Image;

constexpr size_t kStagingBytes = size_t(64) << 20;

void uploadToBuffer(Context& context, const Buffer& destination, const void* data, size_t bytes,
                    VkDeviceSize offset = 0);
void fillBuffer(Context& context, const Buffer& destination, uint32_t value);
std::vector<std::byte> downloadBuffer(Context& context, const Buffer& source, VkDeviceSize bytes,
                                      VkDeviceSize offset = 0);

template <class T, class Result = std::vector<T>> // Result: std::vector<T> or a mesh's MeshArray<T>
Result downloadBufferAs(Context& context, const Buffer& source, size_t count, VkDeviceSize offset = 0)
{
    std::vector<std::byte> bytes = downloadBuffer(context, source, count * sizeof(T), offset);
    Result result(count);
    if (count)
        std::memcpy(result.data(), bytes.data(), count * sizeof(T));
    return result;
}

// Writes z-slices [firstSlice, firstSlice + sliceCount) of an image, tightly
// packed (x fastest), to `destination`.
using SliceWriter = std::function<void(uint32_t firstSlice, uint32_t sliceCount, std::byte* destination)>;

// Fills the whole image, slab of z-slices by slab, from `writeSlices` and
// leaves it in `finalLayout`, visible to every later command.
void uploadToImage(Context& context, Image& image, size_t texelBytes, const SliceWriter& writeSlices,
                   VkImageLayout finalLayout);
// The same from tightly packed texels; `bytes` must be the image's size.
void uploadToImage(Context& context, Image& image, const void* data, size_t bytes, VkImageLayout finalLayout);

} // namespace isoscope
