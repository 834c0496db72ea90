// The streamed extraction's weld on the host (extract/stream/slab_weld.h)
// without a GPU: slabs shaped like the block method's, large enough that
// every pass runs in several pieces on several threads, welded into one
// mesh in which each grid vertex appears once and every triangle names the
// positions its slab gave it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <tuple>
#include <vector>

#include "core/error.h"
#include "extract/stream/slab_weld.h"
#include "mesh/mesh_sink.h"

using namespace isoscope;

namespace {

struct Slab {
    std::vector<GpuMeshVertex> vertices;
    std::vector<uint32_t> indices, codes;
};

// Slab k of `count`: `size` vertices, the first plane's `plane` ones scattered
// over the first `band` (their positions those of slab k-1's last plane,
// edge code by edge code), the last plane's over the last `band`, every other
// vertex a position of its own; triangles over nearby vertices.
Slab makeSlab(uint32_t k, uint32_t count, size_t size, size_t plane, size_t band, std::mt19937& random)
{
    auto planePosition = [](uint32_t slabPlane, size_t i) {
        return GpuMeshVertex{{float(i), float(slabPlane), -1.0f}, {0.0f, 0.0f, 1.0f}};
    };
    Slab slab;
    slab.vertices.resize(size);
    slab.codes.assign(size, kNoEdgeCode);
    for (size_t v = 0; v < size; ++v)
        slab.vertices[v] = {{float(v), float(k), 1.0f}, {1.0f, 0.0f, 0.0f}};
    std::vector<size_t> first(band), last(band);
    for (size_t i = 0; i < band; ++i) {
        first[i] = i;
        last[i] = size - band + i;
    }
    std::shuffle(first.begin(), first.end(), random);
    std::shuffle(last.begin(), last.end(), random);
    for (size_t i = 0; i < plane; ++i) {
        // Codes of a plane: below 2^31, scattered.
        uint32_t code = uint32_t(i * 7919 % 0x7FFFFFFF);
        if (k > 0) {
            slab.codes[first[i]] = code;
            slab.vertices[first[i]] = planePosition(k, i);
        }
        if (k + 1 < count) {
            slab.codes[last[i]] = code | kLastPlaneBit;
            slab.vertices[last[i]] = planePosition(k + 1, i);
        }
    }
    std::uniform_int_distribution<int> near(-40, 40);
    slab.indices.resize(size * 6);
    for (size_t t = 0; t < size * 2; ++t)
        for (size_t c = 0; c < 3; ++c)
            slab.indices[3 * t + c] = uint32_t(std::clamp<int64_t>(int64_t(t / 2) + near(random), 0, int64_t(size) - 1));
    return slab;
}

// A sink that lends no room (as a file's writer): the weld renumbers in place.
class NoRoomSink final : public MeshSink {
public:
    void addVertices(std::span<const GpuMeshVertex> vertices) override { inner.addVertices(vertices); }
    void addTriangles(std::span<const uint32_t> indices) override { inner.addTriangles(indices); }
    void expect(uint64_t vertices, uint64_t indices) override { inner.expect(vertices, indices); }
    MeshCollector inner;
};

auto key(const glm::vec3& p)
{
    return std::tuple(p.x, p.y, p.z);
}

} // namespace

TEST_CASE("the slab weld makes one vertex of each shared plane vertex and keeps every triangle's positions", "[stream]")
{
    std::mt19937 random(5);
    constexpr uint32_t count = 3;
    // A slab welded on every core (a million vertices or more: its first
    // plane over several pieces) and slabs welded on one thread.
    for (auto [size, plane, band] :
         {std::tuple<size_t, size_t, size_t>{1100000, 20000, 300000}, {300000, 5000, 20000}, {5000, 300, 1000}}) {
        std::vector<Slab> slabs;
        for (uint32_t k = 0; k < count; ++k)
            slabs.push_back(makeSlab(k, count, size, plane, band, random));
        // The collector lends its indices' tail: renumbered there, the
        // read-back left as it was; a sink without room gets them renumbered
        // in place. Both meshes the same.
        MeshCollector collector;
        NoRoomSink noRoom;
        SlabWelder welder(collector), inPlace(noRoom);
        for (uint32_t k = 0; k < count; ++k) {
            std::vector<uint32_t> indices = slabs[k].indices;
            welder.addSlab(slabs[k].vertices, indices, slabs[k].codes, double(k + 1) / count);
            CHECK(indices == slabs[k].indices);
            inPlace.addSlab(slabs[k].vertices, indices, slabs[k].codes, double(k + 1) / count);
            const MeshArray<uint32_t>& all = noRoom.inner.mesh().indices;
            REQUIRE(all.size() >= indices.size());
            CHECK(std::equal(indices.begin(), indices.end(), all.end() - std::ptrdiff_t(indices.size())));
        }
        const Mesh& mesh = collector.mesh();
        CHECK(mesh.indices == std::vector<uint32_t>(noRoom.inner.mesh().indices.begin(), noRoom.inner.mesh().indices.end()));
        CHECK(mesh.positions == std::vector<glm::vec3>(noRoom.inner.mesh().positions.begin(), noRoom.inner.mesh().positions.end()));
        REQUIRE(welder.vertexCount() == count * size - (count - 1) * plane);
        REQUIRE(mesh.positions.size() == welder.vertexCount());
        REQUIRE(mesh.indices.size() == count * size * 6);
        std::vector<std::tuple<float, float, float>> sorted;
        for (const glm::vec3& p : mesh.positions)
            sorted.push_back(key(p));
        std::sort(sorted.begin(), sorted.end());
        CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end()); // no shared vertex twice
        size_t at = 0, wrong = 0;
        for (const Slab& slab : slabs)
            for (uint32_t index : slab.indices) {
                const float* p = slab.vertices[index].position;
                wrong += key(mesh.positions[mesh.indices[at++]]) != std::tuple(p[0], p[1], p[2]);
            }
        CHECK(wrong == 0);
    }
}

TEST_CASE("the slab weld names an engine bug when a slab's first plane has a vertex the slab before lacks", "[stream]")
{
    std::mt19937 random(6);
    Slab first = makeSlab(0, 2, 300000, 1000, 2000, random), second = makeSlab(1, 2, 300000, 1000, 2000, random);
    auto stray = std::find_if(second.codes.begin(), second.codes.end(), [](uint32_t c) { return c != kNoEdgeCode; });
    REQUIRE(stray != second.codes.end());
    *stray = 0x7FFFFFF0u; // on the first plane, in no slab's last plane
    MeshCollector collector;
    SlabWelder welder(collector);
    welder.addSlab(first.vertices, first.indices, first.codes, 0.5);
    CHECK_THROWS_WITH(welder.addSlab(second.vertices, second.indices, second.codes, 1.0),
                      Catch::Contains("did not make") && Catch::Contains("2147483632"));
    Slab bad = makeSlab(0, 1, 1000, 0, 10, random);
    bad.indices[17] = 1000; // one past the last vertex
    SlabWelder other(collector);
    CHECK_THROWS_WITH(other.addSlab(bad.vertices, bad.indices, bad.codes, 1.0), Catch::Contains("names vertex 1000"));
}
