#pragma once
// Work items spread over the host's cores: each thread takes the next item
// until none is left. For the host side of streaming (reading and
// generating slabs), where one core cannot keep up with the device's copies.
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace isoscope {

// The host's cores (at least 1, at most 64), or fewer on a thread that
// holds a HostThreadLimit.
unsigned hostThreads();

// While it lives, hostThreads() on the thread that made it returns at most
// `threads` (at least 1): streamed extraction's reads leave a core to the
// weld, which the reads otherwise crowd out.
class HostThreadLimit {
public:
    explicit HostThreadLimit(unsigned threads);
    ~HostThreadLimit();
    HostThreadLimit(const HostThreadLimit&) = delete;
    HostThreadLimit& operator=(const HostThreadLimit&) = delete;

private:
    unsigned before_;
};

// Worker threads kept for one caller's parallelFor calls (UseThreadPool):
// a call then costs no thread starts. Streamed extraction reads a slab a
// piece at a time, several calls a slab, each spread over every core;
// starting ~15 threads a call made those reads 15% slower on the H200's host.
class ThreadPool {
public:
    explicit ThreadPool(unsigned workers);
    ~ThreadPool(); // waits for the tasks queued
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;
    unsigned workers() const { return unsigned(threads_.size()); }
    void post(std::function<void()> task);

private:
    void work();
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::function<void()>> tasks_;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

// While it lives, parallelFor on the thread that made it runs its helpers
// on `pool`'s workers (at most as many as it has) instead of threads of
// their own. One thread's calls at a time per pool: the calls wait for
// their helpers.
class UseThreadPool {
public:
    explicit UseThreadPool(ThreadPool& pool);
    ~UseThreadPool();
    UseThreadPool(const UseThreadPool&) = delete;
    UseThreadPool& operator=(const UseThreadPool&) = delete;

private:
    ThreadPool* before_;
};

// Runs body(i) for every i in [0, count) on up to `threads` threads (the
// caller's included) and returns when all are done. The first exception a
// body throws is rethrown here, after every thread has stopped; items not
// yet started are skipped once one has thrown.
void parallelFor(uint64_t count, unsigned threads, const std::function<void(uint64_t)>& body);

// memcpy spread over the host's cores in pieces of a few MiB (one core moves
// a few GB/s, far below what a copy engine takes from pinned memory).
void parallelCopy(void* destination, const void* source, size_t bytes);

// Makes the pages of [memory, memory + bytes) (allocated, not yet touched)
// present on every core, in huge pages where the kernel gives them: a
// first touch on one thread faults ~1.6 GB/s in a virtual machine, so a
// growing host buffer filled by one thread is bound by its faults. Where
// the kernel lacks MADV_POPULATE_WRITE (before Linux 5.14) it does nothing
// and the pages fault on first touch as before. The contents stay as they
// were (zero for fresh pages).
void populatePages(void* memory, size_t bytes);

} // namespace isoscope
