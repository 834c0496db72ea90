#include "core/transfer.h"

#include <algorithm>

#include "core/barrier.h"
#include "core/context.h"
#include "core/error.h"
#include "core/memory.h"
#include "core/parallel_for.h"
#include "core/vk_check.h"

namespace isoscope {

namespace {

// Before a copy: work submitted earlier (frames in flight) may still read
// or write the destination.
void barrierBeforeTransferWrite(VkCommandBuffer cmd)
{
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
}

// After a copy: make transfer writes visible to whatever runs next.
void barrierAfterTransferWrite(VkCommandBuffer cmd)
{
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
}

void checkRange(const Buffer& buffer, VkDeviceSize offset, VkDeviceSize bytes, const char* what)
{
    if (offset + bytes > buffer.size)
        fail(std::string(what) + " of " + std::to_string(bytes) + " bytes at offset " + std::to_string(offset) +
             " overruns a buffer of " + std::to_string(buffer.size) + " bytes (engine bug: please report)");
}

} // namespace

void uploadToBuffer(Context& context, const Buffer& destination, const void* data, size_t bytes, VkDeviceSize offset)
{
    if (bytes == 0)
        return;
    checkRange(destination, offset, bytes, "upload");
    Buffer staging = context.allocator().createBuffer(std::min(bytes, kStagingBytes), VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                                      MemoryUsage::Upload, "staging buffer");
    for (size_t done = 0; done < bytes; done += kStagingBytes) {
        size_t chunk = std::min(kStagingBytes, bytes - done);
        parallelCopy(staging.mapped, static_cast<const std::byte*>(data) + done, chunk);
        context.submitAndWait([&](VkCommandBuffer cmd) {
            barrierBeforeTransferWrite(cmd);
            VkBufferCopy region{0, offset + done, chunk};
            vkCmdCopyBuffer(cmd, staging.buffer, destination.buffer, 1, &region);
            barrierAfterTransferWrite(cmd);
        });
    }
}

void fillBuffer(Context& context, const Buffer& destination, uint32_t value)
{
    context.submitAndWait([&](VkCommandBuffer cmd) {
        barrierBeforeTransferWrite(cmd);
        vkCmdFillBuffer(cmd, destination.buffer, 0, VK_WHOLE_SIZE, value);
        barrierAfterTransferWrite(cmd);
    });
}

std::vector<std::byte> downloadBuffer(Context& context, const Buffer& source, VkDeviceSize bytes, VkDeviceSize offset)
{
    std::vector<std::byte> result(bytes);
    if (bytes == 0)
        return result;
    checkRange(source, offset, bytes, "download");
    Buffer staging = context.allocator().createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUsage::Readback,
                                                      "read-back buffer");
    context.submitAndWait([&](VkCommandBuffer cmd) {
        memoryBarrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
        VkBufferCopy region{offset, 0, bytes};
        vkCmdCopyBuffer(cmd, source.buffer, staging.buffer, 1, &region);
        memoryBarrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    });
    parallelCopy(result.data(), staging.mapped, bytes);
    return result;
}

void uploadToImage(Context& context, Image& image, size_t texelBytes, const SliceWriter& writeSlices,
                   VkImageLayout finalLayout)
{
    const VkExtent3D extent = image.extent;
    const size_t sliceBytes = size_t(extent.width) * extent.height * texelBytes;
    const uint32_t slicesPerChunk = uint32_t(std::clamp<size_t>(kStagingBytes / sliceBytes, 1, extent.depth));
    Buffer staging = context.allocator().createBuffer(slicesPerChunk * sliceBytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                                      MemoryUsage::Upload, "staging buffer");
    for (uint32_t z = 0; z < extent.depth; z += slicesPerChunk) {
        uint32_t count = std::min(slicesPerChunk, extent.depth - z);
        bool first = z == 0, last = z + count == extent.depth;
        writeSlices(z, count, static_cast<std::byte*>(staging.mapped));
        context.submitAndWait([&](VkCommandBuffer cmd) {
            VkImageMemoryBarrier2 barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
            barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
            barrier.image = image.image;
            barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
            VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
            dependency.imageMemoryBarrierCount = 1;
            dependency.pImageMemoryBarriers = &barrier;
            if (first) {
                barrier.srcStageMask = VK_PIPELINE_STAGE_2_NONE;
                barrier.dstStageMask = VK_PIPELINE_STAGE_2_TRANSFER_BIT;
                barrier.dstAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
                barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
                barrier.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
                vkCmdPipelineBarrier2(cmd, &dependency);
            }
            VkBufferImageCopy region{};
            region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
            region.imageOffset = {0, 0, int32_t(z)};
            region.imageExtent = {extent.width, extent.height, count};
            vkCmdCopyBufferToImage(cmd, staging.buffer, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);

            // Between chunks the image stays a transfer destination (the next
            // submission's copy waits for this one's); after the last it
            // moves to its final layout, visible to everything.
            barrier.srcStageMask = VK_PIPELINE_STAGE_2_TRANSFER_BIT;
            barrier.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
            barrier.dstStageMask = last ? VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT : VK_PIPELINE_STAGE_2_TRANSFER_BIT;
            barrier.dstAccessMask = last ? VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT
                                         : VK_ACCESS_2_TRANSFER_WRITE_BIT;
            barrier.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
            barrier.newLayout = last ? finalLayout : VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
            vkCmdPipelineBarrier2(cmd, &dependency);
        });
    }
}

void uploadToImage(Context& context, Image& image, const void* data, size_t bytes, VkImageLayout finalLayout)
{
    const VkExtent3D extent = image.extent;
    const size_t texels = size_t(extent.width) * extent.height * extent.depth;
    if (texels == 0 || bytes % texels != 0)
        fail("upload of " + std::to_string(bytes) + " bytes does not fill an image of " + std::to_string(texels) +
             " texels (engine bug: please report)");
    const size_t texelBytes = bytes / texels;
    const size_t sliceBytes = size_t(extent.width) * extent.height * texelBytes;
    uploadToImage(
        context, image, texelBytes,
        [&](uint32_t firstSlice, uint32_t sliceCount, std::byte* destination) {
            parallelCopy(destination, static_cast<const std::byte*>(data) + firstSlice * sliceBytes,
                         sliceCount * sliceBytes);
        },
        finalLayout);
}

} // namespace isoscope
