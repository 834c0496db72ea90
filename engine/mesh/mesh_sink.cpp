#include "mesh/mesh_sink.h"

#include <algorithm>
#include <new>
#include <vector>

#include <unistd.h>

#include "core/parallel_for.h"

namespace isoscope {

namespace {

// A part of this many vertices or more is copied in on every core, in
// pieces (a dense streamed slab's: millions); a smaller one on the caller's
// thread, where helpers would wait for cores busy reading (H100 call C).
constexpr size_t kParallelVertices = size_t(1) << 20;
constexpr size_t kPiece = size_t(1) << 16;

size_t piecesOf(size_t count)
{
    return (count + kPiece - 1) / kPiece;
}

// Pages made present ahead of the values written: as many bytes as are
// written (a few populatePages calls in all), at least 256 KiB, at most 64 MiB.
size_t presentAhead(size_t wantedBytes)
{
    return std::clamp(wantedBytes, size_t(256) << 10, size_t(64) << 20);
}

// An array's capacity: at most a quarter of the host's memory, as address space.
size_t capacityCap(size_t valueBytes)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    uint64_t memory = pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : uint64_t(1) << 34;
    return size_t(memory / 4 / valueBytes);
}

// Room for `more` values: 16x the first expectation at once (below), then
// growth. A growth copies the whole array on the welding thread and stalled
// the streamed pipeline for as long, so the capacity grows rarely, and early: to twice the expected size once that alone
// outgrows the capacity (so each such growth at least doubles it) while the
// array holds at most an eighth of it (a cheap copy), else when full, to 4x
// or to twice the expected size. The capacity is address space only: pages
// are made present (on every core, core/parallel_for.h populatePages) just
// ahead of the values written, so a generous one costs no memory.
template <class T>
void makeRoom(MeshArray<T>& values, size_t more, uint64_t expected, size_t& presentBytes)
{
    size_t needed = values.size() + more;
    if (values.capacity() == 0 && expected > 0) {
        // The first room is 16x the first expectation, as address space, so
        // that a surface turning dense (the expectation jumping) needs no
        // growth: an early growth's copy on the weld thread took 50-68 ms
        // at Cayley 2048^3's slabs 17-18, the uploads waiting
        // (docs/BENCHMARKS.md, "The H200"). Where the kernel refuses that
        // much address space, the growth below.
        try {
            values.reserve(std::max<uint64_t>(needed, std::min<uint64_t>(expected * 16, capacityCap(sizeof(T)))));
        } catch (const std::bad_alloc&) {
        }
    }
    size_t room = size_t(std::min<uint64_t>(expected * 2, capacityCap(sizeof(T))));
    bool full = needed > values.capacity();
    bool early = expected > values.capacity() && room > values.capacity() && uint64_t(needed) * 8 <= expected;
    if (full || early) {
        size_t generous = std::max(full ? values.capacity() * 4 : size_t(0), room);
        MeshArray<T> grown;
        try {
            grown.reserve(std::max(needed, generous));
        } catch (const std::bad_alloc&) {
            grown.reserve(std::max(needed, values.capacity() * 2)); // address space refused (strict overcommit)
        }
        presentBytes = std::min(grown.capacity() * sizeof(T), needed * sizeof(T) + presentAhead(needed * sizeof(T)));
        populatePages(grown.data(), presentBytes);
        grown.insert(grown.end(), values.begin(), values.end());
        values = std::move(grown);
        return;
    }
    size_t wanted = needed * sizeof(T), limit = values.capacity() * sizeof(T);
    if (wanted <= presentBytes)
        return;
    size_t to = std::min(limit, wanted + presentAhead(wanted));
    populatePages(reinterpret_cast<std::byte*>(values.data()) + presentBytes, to - presentBytes);
    presentBytes = to;
}

} // namespace

void MeshCollector::addVertices(std::span<const GpuMeshVertex> vertices)
{
    makeRoom(mesh_.positions, vertices.size(), expectedVertices_, presentBytes_[0]);
    makeRoom(mesh_.normals, vertices.size(), expectedVertices_, presentBytes_[1]);
    size_t at = mesh_.positions.size();
    mesh_.positions.resize(at + vertices.size());
    mesh_.normals.resize(at + vertices.size());
    // Pieces on the caller's ThreadPool where it uses one (the slab weld's).
    unsigned threads = vertices.size() >= kParallelVertices ? hostThreads() : 1;
    parallelFor(piecesOf(vertices.size()), threads, [&](uint64_t p) {
        for (size_t v = p * kPiece; v < std::min(vertices.size(), (p + 1) * kPiece); ++v) {
            const GpuMeshVertex& vertex = vertices[v];
            mesh_.positions[at + v] = {vertex.position[0], vertex.position[1], vertex.position[2]};
            mesh_.normals[at + v] = {vertex.normal[0], vertex.normal[1], vertex.normal[2]};
        }
    });
}

void MeshCollector::expect(uint64_t vertices, uint64_t indices)
{
    expectedVertices_ = vertices;
    expectedIndices_ = indices;
}

uint32_t* MeshCollector::triangleRoom(size_t count)
{
    if (lentCount_) // handed out before and never added: not part of the mesh
        mesh_.indices.resize(lentAt_);
    makeRoom(mesh_.indices, count, expectedIndices_, presentBytes_[2]);
    lentAt_ = mesh_.indices.size();
    lentCount_ = count;
    mesh_.indices.resize(lentAt_ + count); // not zeroed (MeshArray): the caller writes them
    return mesh_.indices.data() + lentAt_;
}

void MeshCollector::addTriangles(std::span<const uint32_t> indices)
{
    if (lentCount_) {
        bool lent = indices.data() == mesh_.indices.data() + lentAt_ && indices.size() == lentCount_;
        lentCount_ = 0;
        if (lent)
            return; // written in place
        mesh_.indices.resize(lentAt_);
    }
    makeRoom(mesh_.indices, indices.size(), expectedIndices_, presentBytes_[2]);
    size_t at = mesh_.indices.size();
    mesh_.indices.resize(at + indices.size());
    parallelCopy(mesh_.indices.data() + at, indices.data(), indices.size_bytes());
}

uint64_t MeshCollector::presentBytes() const
{
    return uint64_t(presentBytes_[0]) + presentBytes_[1] + presentBytes_[2];
}

} // namespace isoscope
