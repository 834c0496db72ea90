// The host sink of streamed extraction (mesh/mesh_sink.h): parts appended in
// order, whatever the hints about the whole mesh's size, pages made present
// only just ahead of what is written, and populatePages (core/parallel_for.h)
// keeping the contents of the pages it makes present.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/parallel_for.h"
#include "mesh/mesh_sink.h"

using namespace isoscope;

namespace {

std::vector<GpuMeshVertex> vertices(size_t count, float first)
{
    std::vector<GpuMeshVertex> result(count);
    for (size_t i = 0; i < count; ++i) {
        float value = first + float(i);
        result[i] = {{value, -value, 0.5f * value}, {0.0f, 1.0f, value}};
    }
    return result;
}

} // namespace

TEST_CASE("populatePages keeps what the memory holds, at any alignment and length", "[stream]")
{
    std::vector<uint8_t> memory((size_t(40) << 20) + 12345);
    for (size_t i = 0; i < memory.size(); ++i)
        memory[i] = uint8_t(i * 7 + 3);
    for (size_t offset : {size_t(0), size_t(1), size_t(4095), size_t(3) << 20})
        populatePages(memory.data() + offset, memory.size() - offset - 17);
    populatePages(memory.data() + 5, 0);
    populatePages(memory.data() + 5, 100); // less than a page
    for (size_t i = 0; i < memory.size(); ++i)
        if (memory[i] != uint8_t(i * 7 + 3))
            FAIL("byte " << i << " changed");
}

TEST_CASE("the mesh collector appends parts in order whatever size it is told to expect", "[stream]")
{
    // Hints below, above and far above what comes: the arrays hold the parts, nothing else.
    for (uint64_t hint : {uint64_t(0), uint64_t(10), uint64_t(5000), uint64_t(1) << 24}) {
        MeshCollector collector;
        std::vector<GpuMeshVertex> all;
        std::vector<uint32_t> indices;
        for (size_t part = 0; part < 9; ++part) {
            std::vector<GpuMeshVertex> some = vertices(part * 311 + 1, float(all.size()));
            std::vector<uint32_t> triangles(some.size() * 3);
            for (size_t i = 0; i < triangles.size(); ++i)
                triangles[i] = uint32_t(all.size() + (i * 13) % some.size());
            collector.expect(hint, hint * 3);
            collector.addVertices(some);
            collector.addTriangles(triangles);
            all.insert(all.end(), some.begin(), some.end());
            indices.insert(indices.end(), triangles.begin(), triangles.end());
        }
        const Mesh& mesh = collector.mesh();
        REQUIRE(mesh.positions.size() == all.size());
        REQUIRE(mesh.normals.size() == all.size());
        REQUIRE(mesh.indices == indices);
        for (size_t i = 0; i < all.size(); ++i) {
            REQUIRE(std::memcmp(&mesh.positions[i], all[i].position, 12) == 0);
            REQUIRE(std::memcmp(&mesh.normals[i], all[i].normal, 12) == 0);
        }
        // A hint far above the mesh reserves address space, not memory: pages
        // are made present only as far again as each array holds (at least 256 KiB).
        uint64_t written = (mesh.positions.size() + mesh.normals.size()) * sizeof(glm::vec3) + mesh.indices.size() * 4;
        REQUIRE(collector.presentBytes() >= written);
        REQUIRE(collector.presentBytes() <= 2 * written + 3 * (uint64_t(256) << 10));
    }
}
