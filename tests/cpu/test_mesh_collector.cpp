// The host sink of streamed extraction (mesh/mesh_sink.h): parts appended in
// order, whatever the hints about the whole mesh's size, pages made present
// only just ahead of what is written, and populatePages (core/parallel_for.h)
// keeping the contents of the pages it makes present.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <span>
#include <string>
#include <vector>

#include "core/parallel_for.h"
#include "io/mesh_stream.h"
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

TEST_CASE("the mesh collector appends parts in order whatever size it is told to expect, copied or written into the room it lends", "[stream]")
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
            if (part % 3 == 0) {
                collector.addTriangles(triangles);
            } else if (part % 3 == 1) { // written where the collector lends room: taken as they are
                uint32_t* room = collector.triangleRoom(triangles.size());
                std::copy(triangles.begin(), triangles.end(), room);
                collector.addTriangles({room, triangles.size()});
            } else { // room asked for, then other indices added: the room is no part of the mesh
                uint32_t* room = collector.triangleRoom(triangles.size() + 7);
                std::fill(room, room + triangles.size() + 7, 0xDEADu);
                collector.addTriangles(triangles);
            }
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

TEST_CASE("the mesh collector grows early, while the copy is small, once the expected size outgrows it", "[stream]")
{
    MeshCollector collector;
    std::vector<uint32_t> triangles(300, 0);
    collector.addVertices(vertices(1, 0.0f));
    collector.expect(1, 1000);
    collector.addTriangles(triangles);
    size_t first = collector.mesh().indices.capacity();
    CHECK(first >= 2000);
    // An extrapolation far above the capacity while little is held: room for twice it now.
    collector.expect(1, 100000);
    collector.addTriangles(triangles);
    CHECK(collector.mesh().indices.capacity() >= 200000);
    // An expectation a little higher again copies nothing: an early growth waits for it to pass the capacity.
    size_t early = collector.mesh().indices.capacity();
    collector.expect(1, early - 1);
    collector.addTriangles(triangles);
    CHECK(collector.mesh().indices.capacity() == early);
    // Once the array holds more than an eighth of what is expected, only a full array grows.
    size_t held = collector.mesh().indices.capacity();
    std::vector<uint32_t> many(held / 4, 0);
    collector.addTriangles(many);
    collector.expect(1, collector.mesh().indices.size() * 4);
    collector.addTriangles(triangles);
    CHECK(collector.mesh().indices.capacity() == held);
    CHECK(collector.mesh().indices.size() == 4 * triangles.size() + many.size());
}

TEST_CASE("streamed PLY and STL files are the same whether a part's vertices come in one call or several", "[stream]")
{
    // Two parts; the second's triangles name vertices of both. The welder
    // hands a slab's vertices over in two calls (those before the last
    // dropped one through a copy, the rest as they are).
    Volume grid;
    grid.dims = {4, 4, 4};
    grid.spacing = {0.5, 1.0, 2.0};
    grid.origin = {1.0, -2.0, 3.0};
    std::vector<GpuMeshVertex> first = vertices(5, 0.0f), second = vertices(7, 5.0f);
    std::vector<uint32_t> firstTriangles{0, 1, 2, 2, 3, 4}, secondTriangles{3, 5, 6, 6, 7, 11, 4, 8, 10};
    auto write = [&](const std::string& name, size_t split) {
        std::filesystem::path path = std::filesystem::path(ISOSCOPE_TEST_TMP_DIR) / "mesh-sink" / name;
        std::filesystem::create_directories(path.parent_path());
        auto writer = openStreamedMeshWriter(path, grid, MeshPlacement::World, IfExists::Replace);
        writer->addVertices(std::span(first).first(split));
        writer->addVertices(std::span(first).subspan(split));
        writer->addTriangles(firstTriangles);
        writer->addVertices(std::span(second).first(split));
        writer->addVertices(std::span(second).subspan(split));
        writer->addTriangles(secondTriangles);
        writer->commit();
        std::ifstream in(path, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    for (const char* extension : {".ply", ".stl"}) {
        std::string whole = write(std::string("whole") + extension, 0);
        REQUIRE(whole.size() > 84);
        for (size_t split : {1, 3, 5})
            CHECK(write("split" + std::to_string(split) + extension, split) == whole);
    }
}
