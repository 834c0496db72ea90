// What the STL, VTP and glTF writers put in their files, read here with
// plain byte parsing (and nlohmann::json for glTF's JSON). Agreement with
// independent readers (VTK, the Khronos validator) is
// tests/vtk/test_mesh_writers_vs_vtk.py.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <glm/geometric.hpp>
#include <nlohmann/json.hpp>

#include "io/mesh_io.h"

#include "mesh_test_support.h"

using namespace isoscope;
using namespace meshtest;

namespace {

std::vector<char> readAll(const fs::path& path)
{
    std::ifstream file(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

template <typename T>
T at(const std::vector<char>& bytes, size_t offset)
{
    T value;
    REQUIRE(offset + sizeof(T) <= bytes.size());
    std::memcpy(&value, bytes.data() + offset, sizeof(T));
    return value;
}

} // namespace

TEST_CASE("binary STL splits quads and gives outward facet normals on a closed cube", "[mesh]")
{
    fs::path path = tmpPath("cube.stl");
    writeMesh(quadCube(), path);
    std::vector<char> bytes = readAll(path);
    REQUIRE(bytes.size() == 84 + 12 * 50);
    CHECK(std::string(bytes.data(), 5) != "solid");
    REQUIRE(at<uint32_t>(bytes, 80) == 12);
    for (size_t t = 0; t < 12; ++t) {
        size_t record = 84 + 50 * t;
        glm::vec3 normal = at<glm::vec3>(bytes, record);
        glm::vec3 centroid = (at<glm::vec3>(bytes, record + 12) + at<glm::vec3>(bytes, record + 24) +
                              at<glm::vec3>(bytes, record + 36)) / 3.0f;
        CHECK(glm::length(normal) == Approx(1.0f));
        CHECK(glm::dot(normal, centroid - glm::vec3(0.5f)) > 0.0f); // outward
        CHECK(at<uint16_t>(bytes, record + 48) == 0);
    }
}

TEST_CASE("GLB: header, chunks and accessors as the glTF 2.0 spec lays them out", "[mesh]")
{
    Mesh cube = quadCube();
    cube.normals.assign(8, {0.0f, 0.0f, 0.0f}); // not unit: replaced by the faces' normals
    fs::path path = tmpPath("cube.glb");
    writeMesh(cube, path);
    std::vector<char> bytes = readAll(path);
    REQUIRE(bytes.size() >= 28);
    CHECK(std::string(bytes.data(), 4) == "glTF");
    CHECK(at<uint32_t>(bytes, 4) == 2);
    CHECK(at<uint32_t>(bytes, 8) == bytes.size());
    uint32_t jsonLength = at<uint32_t>(bytes, 12);
    CHECK(jsonLength % 4 == 0);
    CHECK(std::string(bytes.data() + 16, 4) == "JSON");
    nlohmann::json json = nlohmann::json::parse(std::string(bytes.data() + 20, jsonLength));
    size_t bin = 20 + jsonLength;
    uint32_t binLength = at<uint32_t>(bytes, bin);
    CHECK(std::string(bytes.data() + bin + 4, 4) == std::string("BIN\0", 4));
    CHECK(bin + 8 + binLength == bytes.size());

    auto primitive = json["meshes"][0]["primitives"][0];
    auto accessors = json["accessors"];
    CHECK(accessors[primitive["attributes"]["POSITION"].get<int>()]["count"] == 8);
    CHECK(accessors[primitive["attributes"]["POSITION"].get<int>()]["max"] == nlohmann::json({1.0, 1.0, 1.0}));
    CHECK(accessors[primitive["indices"].get<int>()]["count"] == 36); // 6 quads, 2 triangles each
    CHECK(json["buffers"][0]["byteLength"].get<uint32_t>() <= binLength);

    // Normals: every one unit length, the corner (0,0,0)'s pointing away from the cube.
    int normalView = accessors[primitive["attributes"]["NORMAL"].get<int>()]["bufferView"];
    size_t normalsAt = bin + 8 + json["bufferViews"][normalView]["byteOffset"].get<size_t>();
    for (size_t v = 0; v < 8; ++v)
        CHECK(glm::length(at<glm::vec3>(bytes, normalsAt + 12 * v)) == Approx(1.0f));
    glm::vec3 corner0 = at<glm::vec3>(bytes, normalsAt);
    CHECK(glm::dot(corner0, glm::vec3(-1.0f)) > 0.9f);
}

TEST_CASE("an empty mesh gives a valid empty glTF scene and empty STL and VTP files", "[mesh]")
{
    Mesh empty;
    writeMesh(empty, tmpPath("empty.glb"));
    std::vector<char> glb = readAll(tmpPath("empty.glb"));
    REQUIRE(glb.size() >= 20);
    CHECK(at<uint32_t>(glb, 8) == glb.size());
    CHECK(20 + at<uint32_t>(glb, 12) == glb.size()); // no BIN chunk: glTF allows no empty buffer
    fs::path gltf = tmpPath("empty.gltf");
    fs::remove(tmpPath("empty.bin"));
    writeMesh(empty, gltf);
    CHECK(nlohmann::json::parse(readAll(gltf))["scenes"][0]["nodes"].empty());
    CHECK_FALSE(fs::exists(tmpPath("empty.bin")));

    writeMesh(empty, tmpPath("empty.stl"));
    CHECK(fs::file_size(tmpPath("empty.stl")) == 84);
    writeMesh(empty, tmpPath("empty.vtp"));
    std::vector<char> vtp = readAll(tmpPath("empty.vtp"));
    CHECK(std::string(vtp.begin(), vtp.end()).find("NumberOfPoints=\"0\"") != std::string::npos);
}

TEST_CASE("VTP keeps quads as quads: offsets step by four", "[mesh]")
{
    fs::path path = tmpPath("cube.vtp");
    writeMesh(quadCube(), path);
    std::vector<char> bytes = readAll(path);
    std::string text(bytes.begin(), bytes.end());
    CHECK(text.find("NumberOfPolys=\"6\"") != std::string::npos);
    // The offsets array is the last block: its UInt64 size (6 Int32) and 4, 8, ..., 24.
    size_t footer = text.rfind("\n</AppendedData>");
    REQUIRE(footer != std::string::npos);
    size_t offsets = footer - 6 * 4;
    CHECK(at<uint64_t>(bytes, offsets - 8) == 24);
    for (int face = 0; face < 6; ++face)
        CHECK(at<int32_t>(bytes, offsets + 4 * face) == 4 * (face + 1));
}

TEST_CASE("with IfExists::Refuse the new writers replace no file, and a .gltf is refused when its .bin exists", "[mesh]")
{
    for (const char* extension : {".stl", ".vtp", ".gltf", ".glb"}) {
        INFO(extension);
        fs::path path = tmpPath(std::string("refuse") + extension);
        fs::remove(path);
        fs::remove(gltfBufferFile(path));
        writeMesh(quadCube(), path, IfExists::Refuse);
        uintmax_t written = fs::file_size(path);
        CHECK_THROWS_WITH(writeMesh(quadCube(), path, IfExists::Refuse), Catch::Contains(path.string()));
        CHECK(fs::file_size(path) == written);
        writeMesh(Mesh{}, path, IfExists::Replace); // Replace: the API default, as for PLY and OBJ
        CHECK(fs::file_size(path) < written);
    }

    // The .bin alone exists: nothing is written, the .bin is untouched.
    fs::path gltf = tmpPath("bin_exists.gltf"), bin = gltfBufferFile(gltf);
    CHECK(bin == tmpPath("bin_exists.bin"));
    fs::remove(gltf);
    { std::ofstream(bin) << "unrelated"; }
    CHECK_THROWS_WITH(writeGltf(quadCube(), gltf, IfExists::Refuse), Catch::Contains(bin.string()));
    CHECK(!fs::exists(gltf));
    CHECK(fs::file_size(bin) == 9);
    CHECK(meshOutputFiles(gltf) == std::vector<fs::path>{gltf, bin});
    CHECK(meshOutputFiles(tmpPath("x.GLB")) == std::vector<fs::path>{tmpPath("x.GLB")});
}
