#include "core/host_memory.h"

#include <cstdio>
#include <unistd.h>

#include "core/error.h"

namespace isoscope {

uint64_t physicalMemoryBytes()
{
    long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && pageSize > 0 ? uint64_t(pages) * uint64_t(pageSize) : 0;
}

namespace {

// In GiB: the sizes this check is about. (Not core/memory.h's formatBytes,
// so that the readers, fuzzed without Vulkan, need nothing of it.)
std::string gib(uint64_t bytes)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GiB", double(bytes) / double(uint64_t(1) << 30));
    return text;
}

} // namespace

void checkHostMemory(uint64_t bytes, const std::string& what)
{
    uint64_t physical = physicalMemoryBytes();
    if (physical && bytes > physical)
        fail(what + " needs " + gib(bytes) + " of host memory, this machine has " + gib(physical) +
             ": use a smaller volume");
}

} // namespace isoscope
