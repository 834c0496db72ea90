#pragma once
// Edge code -> vertex number for the vertices on one grid plane (the slab
// weld's, slab_weld.h): open addressing with linear probing in one flat
// array sized once per plane, where std::unordered_map allocated a node per
// vertex (faster or equal in 7 of 8 streamed runs on the H200:
// docs/BENCHMARKS.md, "The H200").
#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

namespace isoscope {

class EdgeCodeMap {
public:
    static constexpr uint32_t kMissing = UINT32_MAX;

    // Empties the map and makes room for `count` entries at most half full.
    void reset(size_t count)
    {
        size_t capacity = std::bit_ceil(std::max<size_t>(count * 2, 16));
        if (slots_.size() < capacity || slots_.size() > capacity * 8)
            slots_.assign(capacity, kEmpty);
        else
            std::fill(slots_.begin(), slots_.end(), kEmpty);
        mask_ = slots_.size() - 1;
    }

    // Codes are below 2^31 (edge_code bit 31 is taken off by the caller); a
    // code inserted twice keeps its first number.
    void insert(uint32_t code, uint32_t number)
    {
        for (size_t i = slot(code);; i = (i + 1) & mask_) {
            uint64_t& entry = slots_[i];
            if (entry == kEmpty) {
                entry = uint64_t(code) << 32 | number;
                return;
            }
            if (uint32_t(entry >> 32) == code)
                return;
        }
    }

    // The same from several threads at once (no find meanwhile): a code
    // inserted twice keeps its smaller number, which is the first where
    // numbers grow in the order of the vertices, as the weld's do.
    void insertConcurrent(uint32_t code, uint32_t number)
    {
        uint64_t wanted = uint64_t(code) << 32 | number;
        for (size_t i = slot(code);; i = (i + 1) & mask_) {
            std::atomic_ref<uint64_t> entry(slots_[i]);
            uint64_t seen = entry.load(std::memory_order_relaxed);
            while (seen == kEmpty || (uint32_t(seen >> 32) == code && uint32_t(seen) > number))
                if (entry.compare_exchange_weak(seen, wanted, std::memory_order_relaxed))
                    return;
            if (uint32_t(seen >> 32) == code)
                return;
        }
    }

    uint32_t find(uint32_t code) const
    {
        if (slots_.empty())
            return kMissing;
        for (size_t i = slot(code);; i = (i + 1) & mask_) {
            uint64_t entry = slots_[i];
            if (entry == kEmpty)
                return kMissing;
            if (uint32_t(entry >> 32) == code)
                return uint32_t(entry);
        }
    }

    void swap(EdgeCodeMap& other) noexcept
    {
        slots_.swap(other.slots_);
        std::swap(mask_, other.mask_);
    }

private:
    static constexpr uint64_t kEmpty = UINT64_MAX; // no code has bit 31 set, so no entry is all ones
    // Fibonacci hashing: neighbouring codes (a row's edges) spread over the table.
    size_t slot(uint32_t code) const { return size_t((uint64_t(code) * 0x9E3779B97F4A7C15ull) >> 32) & mask_; }

    std::vector<uint64_t> slots_;
    size_t mask_ = 0;
};

} // namespace isoscope
