// Mesh files (PLY, OBJ) and the mesh checks that `isoscope meshcheck` prints.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "core/error.h"
#include "extract/cpu/marching_cubes.h"
#include "io/mesh_io.h"
#include "mesh/mesh_check.h"
#include "volume/synthetic.h"

#include "mesh_test_support.h"

using namespace isoscope;
using namespace meshtest;

TEST_CASE("a tetrahedron: 4 vertices, 6 edges, 4 faces, Euler 2, closed", "[mesh]")
{
    MeshReport report = checkMesh(tetrahedron());
    CHECK(report.vertices == 4);
    CHECK(report.referencedVertices == 4);
    CHECK(report.faces == 4);
    CHECK(report.edges == 6);
    CHECK(report.boundaryEdges == 0);
    CHECK(report.nonManifoldEdges == 0);
    CHECK(report.inconsistentEdges == 0);
    CHECK(report.components == 1);
    CHECK(report.eulerCharacteristic == 2);
    CHECK(report.surfaceArea == Approx(1.5 + std::sqrt(3.0) / 2.0));
    CHECK(report.verticesSharingPosition == 0);
    CHECK(report.degenerateFaces == 0);
    CHECK(report.closed());
    nlohmann::json json = toJson(report);
    CHECK(json["euler_characteristic"] == 2);
    CHECK(json["faces"] == 4);
    CHECK(json["closed"] == true);
}

TEST_CASE("a quad cube counts each quad as one face: Euler 8 - 12 + 6 = 2, area 6", "[mesh]")
{
    MeshReport report = checkMesh(quadCube());
    CHECK(report.faces == 6);
    CHECK(report.edges == 12);
    CHECK(report.eulerCharacteristic == 2);
    CHECK(report.surfaceArea == Approx(6.0));
    CHECK(report.closed());
    CHECK(report.inconsistentEdges == 0);
}

TEST_CASE("mesh check finds boundaries, non-manifold edges, flipped faces, shared positions, degenerate faces", "[mesh]")
{
    Mesh open = tetrahedron();
    open.indices.resize(9); // one face removed: a boundary loop of 3 edges
    MeshReport openReport = checkMesh(open);
    CHECK(openReport.boundaryEdges == 3);
    CHECK(openReport.eulerCharacteristic == 1);

    Mesh fin = tetrahedron();
    fin.positions.push_back({1, 1, 1});
    fin.indices.insert(fin.indices.end(), {0, 1, 4}); // a third face on edge 0-1
    CHECK(checkMesh(fin).nonManifoldEdges == 1);

    Mesh flipped = tetrahedron();
    std::swap(flipped.indices[0], flipped.indices[1]);
    CHECK(checkMesh(flipped).inconsistentEdges == 3);

    Mesh collapsed = tetrahedron();
    collapsed.positions.push_back(collapsed.positions[3]); // vertex 4 at vertex 3's position
    collapsed.positions.push_back({5, 5, 5});               // unreferenced
    collapsed.indices.insert(collapsed.indices.end(), {1, 3, 4});
    MeshReport report = checkMesh(collapsed);
    CHECK(report.verticesSharingPosition == 2);
    CHECK(report.degenerateFaces == 1);
    CHECK(report.vertices == 6);
    CHECK(report.referencedVertices == 5);

    Mesh broken = tetrahedron();
    broken.indices[5] = 9;
    CHECK_THAT(errorMessage([&] { checkMesh(broken); }), Catch::Contains("vertex 9 of 4"));
}

TEST_CASE("PLY and OBJ round trips keep positions, normals and faces exactly", "[mesh]")
{
    Mesh mesh = extractMarchingCubes(makeSyntheticVolume("torus:24"), 0.05f);
    REQUIRE(mesh.faceCount() > 100);
    for (const char* name : {"torus.ply", "torus.obj", "TORUS.PLY"}) {
        CAPTURE(name);
        fs::path path = tmpPath(name);
        writeMesh(mesh, path);
        Mesh back = readMesh(path);
        CHECK(back.faceSize == 3);
        CHECK(back.positions == mesh.positions);
        CHECK(back.normals == mesh.normals);
        CHECK(back.indices == mesh.indices);
    }
    Mesh cube = quadCube();
    for (const char* name : {"cube.ply", "cube.obj"}) {
        CAPTURE(name);
        writeMesh(cube, tmpPath(name));
        Mesh back = readMesh(tmpPath(name));
        CHECK(back.faceSize == 4);
        CHECK(back.positions == cube.positions);
        CHECK(back.normals.empty());
        CHECK(back.indices == cube.indices);
    }
}

TEST_CASE("a binary PLY has the documented header", "[mesh]")
{
    fs::path path = tmpPath("tetra.ply");
    Mesh mesh = tetrahedron();
    mesh.normals.assign(4, {0, 0, 1});
    writePly(mesh, path);
    std::ifstream file(path, std::ios::binary);
    std::string content((std::istreambuf_iterator<char>(file)), {});
    std::string header = content.substr(0, content.find("end_header\n") + 11);
    CHECK_THAT(header, Catch::StartsWith("ply\nformat binary_little_endian 1.0\n"));
    CHECK_THAT(header, Catch::Contains("element vertex 4\nproperty float x\nproperty float y\nproperty float z\n"
                                       "property float nx\nproperty float ny\nproperty float nz\n"));
    CHECK_THAT(header, Catch::Contains("element face 4\nproperty list uchar uint vertex_indices\n"));
    CHECK(content.size() == header.size() + 4 * 24 + 4 * (1 + 12));
}

TEST_CASE("ascii PLY with other types, extra properties and mixed polygons is read", "[mesh]")
{
    fs::path path = tmpPath("mixed.ply");
    writeFile(path, "ply\r\nformat ascii 1.0\r\ncomment made by hand\r\n"
                    "element vertex 5\nproperty double x\nproperty double y\nproperty double z\n"
                    "property uchar red\n"
                    "element face 2\nproperty list uchar int vertex_index\nproperty float quality\n"
                    "element extra 1\nproperty list uchar float stuff\n"
                    "end_header\n"
                    "0 0 0 255\n1 0 0 0\n1 1 0 0\n0 1 0 0\n0.5 0.5 1 7\n"
                    "4 0 1 2 3 0.5\n3 0 1 4 1\n"
                    "2 1.5 2.5\n");
    Mesh mesh = readMesh(path);
    CHECK(mesh.positions.size() == 5);
    CHECK(mesh.positions[4] == glm::vec3(0.5f, 0.5f, 1.0f));
    CHECK(mesh.normals.empty());
    CHECK(mesh.faceSize == 3); // a quad and a triangle: fanned
    CHECK(mesh.indices == std::vector<uint32_t>{0, 1, 2, 0, 2, 3, 0, 1, 4});
}

TEST_CASE("OBJ faces with texture indices and negative indices are read", "[mesh]")
{
    fs::path path = tmpPath("hand.obj");
    writeFile(path, "# hand made\nmtllib x.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\n"
                    "usemtl a\nf 1/1/1 2/1/1 3/1/1\nf -3 -2 -1\n");
    Mesh mesh = readMesh(path);
    CHECK(mesh.positions.size() == 3);
    CHECK(mesh.normals.empty()); // one vn shared by three vertices: not per-vertex normals
    CHECK(mesh.indices == std::vector<uint32_t>{0, 1, 2, 0, 1, 2});
}

TEST_CASE("bad mesh files are errors that name the file and the problem", "[mesh]")
{
    CHECK_THAT(errorMessage([] { readMesh(tmpPath("missing.ply")); }), Catch::Contains("missing.ply"));
    CHECK_THAT(errorMessage([] { readMesh(tmpPath("mesh.stl")); }), Catch::Contains("unknown mesh extension '.stl'"));
    CHECK_THAT(errorMessage([] { writeMesh(tetrahedron(), tmpPath("mesh.3mf")); }),
               Catch::Contains("unknown mesh extension '.3mf'"));

    fs::path truncated = tmpPath("truncated.ply");
    writePly(tetrahedron(), truncated);
    fs::resize_file(truncated, fs::file_size(truncated) - 5);
    CHECK_THAT(errorMessage([&] { readMesh(truncated); }),
               Catch::Contains("truncated.ply") && Catch::Contains("ends early"));

    fs::path bigEndian = tmpPath("big.ply");
    writeFile(bigEndian, "ply\nformat binary_big_endian 1.0\nelement vertex 0\nend_header\n");
    CHECK_THAT(errorMessage([&] { readMesh(bigEndian); }), Catch::Contains("binary_big_endian"));

    fs::path notPly = tmpPath("text.ply");
    writeFile(notPly, "hello\n");
    CHECK_THAT(errorMessage([&] { readMesh(notPly); }), Catch::Contains("not a PLY file"));

    fs::path badIndex = tmpPath("index.ply");
    writeFile(badIndex, "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
                        "property float z\nelement face 1\nproperty list uchar uint vertex_indices\nend_header\n"
                        "0 0 0\n1 0 0\n0 1 0\n3 0 1 7\n");
    CHECK_THAT(errorMessage([&] { readMesh(badIndex); }), Catch::Contains("vertex 7 of 3"));

    fs::path badObj = tmpPath("bad.obj");
    writeFile(badObj, "v 0 0 0\nv 1 0 0\nf 1 2 3\n");
    CHECK_THAT(errorMessage([&] { readMesh(badObj); }), Catch::Contains("bad.obj") && Catch::Contains("line 3"));
}

TEST_CASE("PLY element counts that the file cannot hold are errors, not huge allocations", "[mesh]")
{
    const std::string vertexProperties = "property float x\nproperty float y\nproperty float z\n";

    fs::path negative = tmpPath("negative_count.ply");
    writeFile(negative, "ply\nformat ascii 1.0\nelement vertex -1\n" + vertexProperties + "end_header\n0 0 0\n");
    CHECK_THAT(errorMessage([&] { readMesh(negative); }), Catch::Contains("negative_count.ply") && Catch::Contains("'-1'"));

    // 10^12 vertices of 12 bytes would be 12 TB; the file holds 24 bytes.
    fs::path huge = tmpPath("huge_count.ply");
    writeFile(huge, "ply\nformat binary_little_endian 1.0\nelement vertex 1000000000000\n" + vertexProperties +
                        "end_header\n" + std::string(24, '\0'));
    CHECK_THAT(errorMessage([&] { readMesh(huge); }),
               Catch::Contains("huge_count.ply") && Catch::Contains("1000000000000") && Catch::Contains("24 bytes"));

    // Counts that overflow when multiplied by the record size.
    fs::path overflow = tmpPath("overflow_count.ply");
    writeFile(overflow, "ply\nformat binary_little_endian 1.0\nelement vertex 18446744073709551615\n" +
                            vertexProperties + "end_header\n");
    CHECK_THAT(errorMessage([&] { readMesh(overflow); }), Catch::Contains("overflow_count.ply"));

    fs::path ascii = tmpPath("ascii_count.ply");
    writeFile(ascii, "ply\nformat ascii 1.0\nelement vertex 1000000\n" + vertexProperties + "end_header\n0 0 0\n");
    CHECK_THAT(errorMessage([&] { readMesh(ascii); }), Catch::Contains("ascii_count.ply") && Catch::Contains("1000000"));

    // Faces counted against what is left after the vertices: 3 vertices use all
    // 36 bytes, so even one face (at least its 1-byte list count) does not fit.
    fs::path faces = tmpPath("face_count.ply");
    writeFile(faces, "ply\nformat binary_little_endian 1.0\nelement vertex 3\n" + vertexProperties +
                         "element face 1000000000\nproperty list uchar uint vertex_indices\nend_header\n" +
                         std::string(36, '\0'));
    CHECK_THAT(errorMessage([&] { readMesh(faces); }), Catch::Contains("face_count.ply") && Catch::Contains("face"));

    // The smallest ascii file that holds its counts still reads.
    fs::path tight = tmpPath("tight.ply");
    writeFile(tight, "ply\nformat ascii 1.0\nelement vertex 1\n" + vertexProperties + "end_header\n1 2 3");
    Mesh mesh = readMesh(tight);
    REQUIRE(mesh.positions.size() == 1);
    CHECK(mesh.positions[0] == glm::vec3(1, 2, 3));
}
