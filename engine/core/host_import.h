#pragma once
// Host memory the device copies from or into in place
// (VK_EXT_external_memory_host): pages the engine maps and makes present on
// every core itself, then imports as a buffer, instead of pinned memory the
// driver allocates (and zeroes) on one thread. For large staging that must
// exist before the first upload (streamed extraction's ring), and for
// read-back buffers that grow while the uploads run.
//
//   if (canImportHostMemory(context)) {
//       HostImportedBuffer staging = importHostBuffer(context, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, "slab staging");
//       std::memcpy(staging.data, samples, bytes);          // then copy from staging.buffer on any queue
//   }
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/memory.h"

namespace isoscope {

class Context;

// A mapping of fresh host pages (present, zero), unmapped when destroyed.
struct HostPages {
    std::byte* data = nullptr; // aligned as asked
    void* mapping = nullptr;
    size_t mappingBytes = 0;

    HostPages() = default;
    HostPages(HostPages&& other) noexcept { *this = std::move(other); }
    HostPages& operator=(HostPages&& other) noexcept;
    HostPages(const HostPages&) = delete;
    HostPages& operator=(const HostPages&) = delete;
    ~HostPages() { reset(); }
    void reset();
};

// The buffer goes before its pages (members are destroyed in reverse).
struct HostImportedBuffer {
    HostPages pages;
    Buffer buffer; // not mapped through Vulkan (buffer.mapped is null): the CPU writes pages.data
    std::byte* data() const { return pages.data; }
};

// Whether the device imports host allocations as coherent, host-visible
// memory for buffers of `usage` (a transfer's source, by default): the
// extension is there (the device feature chain enables it wherever the
// device has it) and such a buffer may be bound to such memory.
bool canImportHostMemory(const Context& context, VkBufferUsageFlags usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT);

// The alignment of an imported range's start and size: the device's
// minimum, at least 2 MiB (a mapping's middle in huge pages).
uint64_t hostImportAlignment(const Context& context);

// `bytes` of fresh host pages aligned to `alignment`, made present on every
// core (huge pages where the kernel gives them), or, without `populate`,
// left for the caller to make present a range at a time (populatePages,
// core/parallel_for.h) before it imports each. Throws Error naming `what`.
HostPages mapHostPages(uint64_t bytes, uint64_t alignment, const std::string& what, bool populate = true);

// [data, data + size) of pages already mapped and present, `data` aligned
// to hostImportAlignment and the range rounded up to it inside the mapping,
// imported as a buffer of `usage` (the pages must outlive it). Separate
// ranges of one mapping import on separate threads at once: the driver pins
// each on the calling thread. Throws Error naming `what` where it fails.
Buffer importHostRange(Context& context, std::byte* data, uint64_t size, VkBufferUsageFlags usage,
                       const std::string& what);

// `size` bytes of fresh host pages, made present on every core (huge pages
// where the kernel gives them), imported as a buffer of `usage`. The bytes
// are host memory: they do not count against the device budget. Throws
// Error naming `what` where the mapping or the import fails.
HostImportedBuffer importHostBuffer(Context& context, uint64_t size, VkBufferUsageFlags usage, const std::string& what);

} // namespace isoscope
