#pragma once
// Moving data between the CPU and device-local resources through staging
// buffers. Each call submits and waits: these are for set-up and read-back
// outside a frame, never inside one.
#include <cstddef>
#include <cstring>
#include <vector>

#include <volk.h>

namespace isoscope {

class Context;
struct Buffer;
struct Image;

void uploadToBuffer(Context& context, const Buffer& destination, const void* data, size_t bytes,
                    VkDeviceSize offset = 0);
void fillBuffer(Context& context, const Buffer& destination, uint32_t value);
std::vector<std::byte> downloadBuffer(Context& context, const Buffer& source, VkDeviceSize bytes,
                                      VkDeviceSize offset = 0);

template <class T>
std::vector<T> downloadBufferAs(Context& context, const Buffer& source, size_t count, VkDeviceSize offset = 0)
{
    std::vector<std::byte> bytes = downloadBuffer(context, source, count * sizeof(T), offset);
    std::vector<T> result(count);
    if (count)
        std::memcpy(result.data(), bytes.data(), count * sizeof(T));
    return result;
}

// Uploads tightly packed texels (x fastest) to the whole image and leaves it
// in `finalLayout`, visible to every later command.
void uploadToImage(Context& context, Image& image, const void* data, size_t bytes, VkImageLayout finalLayout);

} // namespace isoscope
