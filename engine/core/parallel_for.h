#pragma once
// Work items spread over the host's cores: each thread takes the next item
// until none is left. For the host side of streaming (reading and
// generating slabs), where one core cannot keep up with the device's copies.
#include <cstddef>
#include <cstdint>
#include <functional>

namespace isoscope {

// The host's cores (at least 1, at most 64).
unsigned hostThreads();

// Runs body(i) for every i in [0, count) on up to `threads` threads (the
// caller's included) and returns when all are done. The first exception a
// body throws is rethrown here, after every thread has stopped; items not
// yet started are skipped once one has thrown.
void parallelFor(uint64_t count, unsigned threads, const std::function<void(uint64_t)>& body);

// memcpy spread over the host's cores in pieces of a few MiB (one core moves
// a few GB/s, far below what a copy engine takes from pinned memory).
void parallelCopy(void* destination, const void* source, size_t bytes);

} // namespace isoscope
