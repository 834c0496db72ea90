#pragma once
// The host's memory, for refusing a volume that cannot fit before
// allocating it: a std::bad_alloc (or the kernel's OOM killer, with
// overcommit) says neither what was asked nor what there is.
#include <cstdint>
#include <string>

namespace isoscope {

// Physical memory of the machine, in bytes (0 where the system cannot say).
uint64_t physicalMemoryBytes();

// Throws Error "`what` needs N of host memory, this machine has M: use a
// smaller volume" when bytes exceed the machine's physical memory.
void checkHostMemory(uint64_t bytes, const std::string& what);

} // namespace isoscope
