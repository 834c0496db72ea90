#include "core/parallel_for.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <mutex>
#include <sys/mman.h>
#include <unistd.h>
#include <thread>
#include <vector>

namespace isoscope {

namespace {
thread_local unsigned threadLimit = 0;        // 0: none
thread_local ThreadPool* threadPool = nullptr; // none: helpers are threads of their own
}

ThreadPool::ThreadPool(unsigned workers)
{
    for (unsigned t = 0; t < workers; ++t)
        threads_.emplace_back([this] { work(); });
}

ThreadPool::~ThreadPool()
{
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& thread : threads_)
        thread.join();
}

void ThreadPool::post(std::function<void()> task)
{
    {
        std::lock_guard lock(mutex_);
        tasks_.push_back(std::move(task));
    }
    wake_.notify_one();
}

void ThreadPool::work()
{
    for (;;) {
        std::function<void()> task;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stopping_ || !tasks_.empty(); });
            if (tasks_.empty())
                return; // stopping, nothing queued
            task = std::move(tasks_.front());
            tasks_.pop_front();
        }
        task(); // parallelFor's helpers catch their bodies' exceptions
    }
}

UseThreadPool::UseThreadPool(ThreadPool& pool) : before_(threadPool)
{
    threadPool = &pool;
}

UseThreadPool::~UseThreadPool()
{
    threadPool = before_;
}

unsigned hostThreads()
{
    unsigned cores = std::clamp(std::thread::hardware_concurrency(), 1u, 64u);
    return threadLimit ? std::min(cores, threadLimit) : cores;
}

HostThreadLimit::HostThreadLimit(unsigned threads) : before_(threadLimit)
{
    threadLimit = std::max(threads, 1u);
}

HostThreadLimit::~HostThreadLimit()
{
    threadLimit = before_;
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
    if (ThreadPool* pool = threadPool) {
        // The pool's workers run `work` (this frame's) and count down; the
        // caller waits for every one it posted, so none outlives the frame.
        helpers = std::min<uint64_t>(helpers, pool->workers());
        std::mutex doneMutex;
        std::condition_variable doneWake;
        uint64_t running = helpers;
        for (uint64_t t = 0; t < helpers; ++t)
            pool->post([&] {
                work();
                std::lock_guard lock(doneMutex);
                if (--running == 0)
                    doneWake.notify_one();
            });
        work();
        std::unique_lock lock(doneMutex);
        doneWake.wait(lock, [&] { return running == 0; });
    } else {
        std::vector<std::jthread> started;
        for (uint64_t t = 0; t < helpers; ++t)
            started.emplace_back(work);
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

void populatePages(void* memory, size_t bytes)
{
#if defined(__linux__)
#ifndef MADV_POPULATE_WRITE
    constexpr int MADV_POPULATE_WRITE = 23; // Linux 5.14's value, where the C library's headers predate it
#endif
    constexpr uintptr_t kHuge = uintptr_t(2) << 20, kPiece = uintptr_t(16) << 20;
    uintptr_t page = uintptr_t(sysconf(_SC_PAGE_SIZE));
    uintptr_t begin = (reinterpret_cast<uintptr_t>(memory) + page - 1) / page * page;
    uintptr_t end = (reinterpret_cast<uintptr_t>(memory) + bytes) / page * page;
    if (end <= begin)
        return;
    // Only the 2 MiB-aligned middle can be huge pages; the advice is a hint (a kernel without them refuses it).
    uintptr_t hugeBegin = (begin + kHuge - 1) / kHuge * kHuge, hugeEnd = end / kHuge * kHuge;
    if (hugeEnd > hugeBegin)
        madvise(reinterpret_cast<void*>(hugeBegin), hugeEnd - hugeBegin, MADV_HUGEPAGE);
    if (madvise(reinterpret_cast<void*>(begin), std::min<uintptr_t>(page, end - begin), MADV_POPULATE_WRITE) != 0)
        return; // an older kernel: first touches fault them
    parallelFor((end - begin + kPiece - 1) / kPiece, hostThreads(), [&](uint64_t piece) {
        uintptr_t from = begin + piece * kPiece;
        madvise(reinterpret_cast<void*>(from), std::min<uintptr_t>(kPiece, end - from), MADV_POPULATE_WRITE);
    });
#else
    (void)memory;
    (void)bytes;
#endif
}

} // namespace isoscope
