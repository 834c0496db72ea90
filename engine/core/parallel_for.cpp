#include "core/parallel_for.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace isoscope {

unsigned hostThreads()
{
    return std::clamp(std::thread::hardware_concurrency(), 1u, 64u);
}

void parallelFor(uint64_t count, unsigned threads, const std::function<void(uint64_t)>& body)
{
    std::atomic<uint64_t> next{0};
    std::atomic<bool> failed{false};
    std::exception_ptr error;
    std::mutex errorMutex;
    auto work = [&] {
        for (uint64_t i; !failed && (i = next.fetch_add(1)) < count;) {
            try {
                body(i);
            } catch (...) {
                std::lock_guard lock(errorMutex);
                if (!error)
                    error = std::current_exception();
                failed = true;
            }
        }
    };
    uint64_t helpers = std::min<uint64_t>(std::max(threads, 1u), count) - (count > 0 ? 1 : 0);
    {
        std::vector<std::jthread> pool;
        for (uint64_t t = 0; t < helpers; ++t)
            pool.emplace_back(work);
        work();
    }
    if (error)
        std::rethrow_exception(error);
}

void parallelCopy(void* destination, const void* source, size_t bytes)
{
    constexpr size_t kPiece = size_t(8) << 20;
    if (bytes <= kPiece) {
        std::memcpy(destination, source, bytes);
        return;
    }
    parallelFor((bytes + kPiece - 1) / kPiece, hostThreads(), [&](uint64_t piece) {
        size_t offset = piece * kPiece;
        std::memcpy(static_cast<std::byte*>(destination) + offset, static_cast<const std::byte*>(source) + offset,
                    std::min(kPiece, bytes - offset));
    });
}

} // namespace isoscope
