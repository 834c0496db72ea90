#pragma once
// An indexed surface mesh on the CPU: the one output contract of every
// extractor once read back. Positions are in world units.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include <glm/vec3.hpp>

namespace isoscope {

// std::allocator, but `resize(n)` leaves new values default-initialised
// (uninitialised, for glm::vec3 and integers): a streamed mesh grows by parts
// that are written right after, and zeroing them first cost a pass over the
// memory on one thread (docs/BENCHMARKS.md, "Call M"). resize(n, value)
// and assign(n, value) still set every value.
template <class T>
struct DefaultInitAllocator : std::allocator<T> {
    template <class U>
    struct rebind {
        using other = DefaultInitAllocator<U>;
    };
    DefaultInitAllocator() = default;
    template <class U>
    DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept
    {
    }
    template <class U>
    void construct(U* at) noexcept(std::is_nothrow_default_constructible_v<U>)
    {
        ::new (static_cast<void*>(at)) U;
    }
    template <class U, class... Args>
    void construct(U* at, Args&&... args)
    {
        std::allocator_traits<std::allocator<T>>::construct(*this, at, std::forward<Args>(args)...);
    }
};

template <class T>
using MeshArray = std::vector<T, DefaultInitAllocator<T>>;

// The same values, whatever the allocators.
template <class T>
bool operator==(const MeshArray<T>& a, const std::vector<T>& b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
}

struct Mesh {
    MeshArray<glm::vec3> positions;
    MeshArray<glm::vec3> normals;  // one per position, unit length, or empty
    MeshArray<uint32_t> indices;   // faceSize indices per face
    uint32_t faceSize = 3;         // 3 (triangles) or 4 (quads, from dual methods)

    uint64_t faceCount() const { return faceSize ? indices.size() / faceSize : 0; }
};

} // namespace isoscope
