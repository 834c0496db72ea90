#pragma once
// Buffers and images with one dedicated allocation each, through an Allocator
// that counts the bytes: current and peak device-local bytes are what the
// extractors report as their memory cost, so every allocation goes through it.
//
// One allocation per resource is deliberate for now: the engine makes few,
// large resources (volumes, meshes, work lists), far under the driver's
// allocation-count limit, and exact byte counts are easier to report.
#include <atomic>
#include <cstdint>
#include <string>

#include <volk.h>

namespace isoscope {

class Allocator;
struct DeviceInfo;

enum class MemoryUsage {
    DeviceLocal, // GPU only
    Upload,      // host-visible, written once by the CPU (staging, small parameters)
    Readback,    // host-visible and cached, read by the CPU
};

// Move-only handles; destroying one releases its memory and updates the counts.
struct Buffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkDeviceSize size = 0;        // requested size
    VkDeviceSize allocated = 0;   // bytes of the allocation (size rounded up by the driver)
    void* mapped = nullptr;       // persistent mapping for Upload/Readback buffers
    bool deviceLocal = false;
    Allocator* owner = nullptr;

    Buffer() = default;
    Buffer(Buffer&& other) noexcept { *this = std::move(other); }
    Buffer& operator=(Buffer&& other) noexcept;
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    ~Buffer() { reset(); }
    void reset();
    explicit operator bool() const { return buffer != VK_NULL_HANDLE; }
};

struct Image {
    VkImage image = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkFormat format = VK_FORMAT_UNDEFINED;
    VkExtent3D extent{0, 0, 0};
    VkImageType type = VK_IMAGE_TYPE_3D;
    VkDeviceSize allocated = 0;
    Allocator* owner = nullptr;

    Image() = default;
    Image(Image&& other) noexcept { *this = std::move(other); }
    Image& operator=(Image&& other) noexcept;
    Image(const Image&) = delete;
    Image& operator=(const Image&) = delete;
    ~Image() { reset(); }
    void reset();
    explicit operator bool() const { return image != VK_NULL_HANDLE; }
};

class Allocator {
public:
    Allocator(VkPhysicalDevice physical, VkDevice device, const DeviceInfo& info);

    // `what` names the resource in error messages ("volume image", "vertex buffer").
    Buffer createBuffer(VkDeviceSize size, VkBufferUsageFlags usage, MemoryUsage memoryUsage, const std::string& what);
    Image createImage(VkImageType type, VkExtent3D extent, VkFormat format, VkImageUsageFlags usage,
                      const std::string& what, VkImageCreateFlags flags = 0);

    uint64_t currentDeviceBytes() const { return currentDevice_; }
    uint64_t peakDeviceBytes() const { return peakDevice_; }
    void resetPeak() { peakDevice_ = currentDevice_.load(); }
    // What the device lets the engine use: the memory budget where the device
    // reports one, else the size of the largest device-local heap.
    uint64_t deviceBudgetBytes() const;
    // What is left for new allocations now: the budget minus the heap's usage
    // (both read afresh) where the device reports a budget, else the largest
    // device-local heap minus what this allocator holds.
    uint64_t availableDeviceBytes() const;

    void release(Buffer& buffer);
    void release(Image& image);

    // Device-local memory that several resources bind (the render graph's
    // aliased transients); counted like every other allocation.
    VkDeviceMemory allocateShared(const VkMemoryRequirements& requirements, const std::string& what);
    void freeShared(VkDeviceMemory memory, VkDeviceSize bytes);

private:
    VkDeviceMemory allocate(const VkMemoryRequirements& requirements, MemoryUsage usage, const std::string& what,
                            bool& deviceLocal);
    // A just-made Buffer or Image takes its memory from here, allocated and
    // bound; `deviceLocal` says where it landed.
    template <class Resource>
    void allocateAndBind(Resource& resource, MemoryUsage usage, const std::string& what, bool& deviceLocal);

    VkPhysicalDevice physical_;
    VkDevice device_;
    const DeviceInfo& info_;
    VkPhysicalDeviceMemoryProperties memory_{};
    // Atomic: a volume may load on one thread while another records frames.
    void countDeviceBytes(uint64_t bytes);
    std::atomic<uint64_t> currentDevice_{0};
    std::atomic<uint64_t> peakDevice_{0};
};

// "1.50 GiB", "12.0 MiB", "512 B": for messages.
std::string formatBytes(uint64_t bytes);

} // namespace isoscope
