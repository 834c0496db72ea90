// Bad mesh files (issue 21): the mesh reader refuses what is not a regular
// file (a folder, a device such as /dev/zero, a FIFO) before reading, caps
// the size it reads, refuses binary garbage given an .obj name, and keeps
// every message on one line.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <sys/stat.h>

#include "core/error.h"
#include "io/mesh_file_support.h"
#include "io/mesh_io.h"

#include "mesh_test_support.h"

using namespace isoscope;
using namespace meshtest;

TEST_CASE("the mesh reader refuses folders, devices and FIFOs by name, without reading them", "[mesh][robustness]")
{
    fs::path folder = freshPath("folder.ply");
    fs::create_directories(folder);
    CHECK_THAT(errorMessage([&] { readMesh(folder); }), Catch::Contains("folder.ply") && Catch::Contains("folder"));

    // /dev/zero under a mesh name: endless zeros, never to be read to the end.
    for (const char* name : {"zero.ply", "zero.obj"}) {
        fs::path zero = freshPath(name);
        fs::create_symlink("/dev/zero", zero);
        CHECK_THAT(errorMessage([&] { readMesh(zero); }), Catch::Contains(name) && Catch::Contains("not a regular file"));
    }

    // A FIFO with no writer: opening it for reading would block forever.
    fs::path fifo = freshPath("pipe.obj");
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    CHECK_THAT(errorMessage([&] { readMesh(fifo); }), Catch::Contains("pipe.obj") && Catch::Contains("not a regular file"));
}

TEST_CASE("the mesh reader refuses a file above its size limit before allocating for it", "[mesh][robustness]")
{
    fs::path path = freshPath("big.obj");
    writeFile(path, std::string(1000, 'v'));
    CHECK(readRegularFile(path, 1000).size() == 1000);
    CHECK_THAT(errorMessage([&] { readRegularFile(path, 999); }),
               Catch::Contains("big.obj") && Catch::Contains("1000 bytes") && Catch::Contains("999"));
    CHECK(kMaxMeshFileBytes >= (uint64_t(1) << 34));
}

TEST_CASE("NUL bytes are not an empty mesh: an OBJ must be text, a PLY must say ply", "[mesh][robustness]")
{
    fs::path obj = freshPath("zeros.obj");
    writeFile(obj, std::string(1 << 20, '\0'));
    CHECK_THAT(errorMessage([&] { readMesh(obj); }), Catch::Contains("zeros.obj") && Catch::Contains("byte 0") &&
                                                    Catch::Contains("control character"));
    fs::path ply = freshPath("zeros.ply");
    writeFile(ply, std::string(1 << 20, '\0'));
    CHECK_THAT(errorMessage([&] { readMesh(ply); }), Catch::Contains("zeros.ply"));

    // A control byte after good lines is found too, with its offset.
    fs::path late = freshPath("late.obj");
    writeFile(late, std::string("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n") + '\x01' + "\n");
    CHECK_THAT(errorMessage([&] { readMesh(late); }), Catch::Contains("byte 32"));

    // Text with no vertices is still an (empty) mesh: what extract writes for an isovalue outside the data.
    fs::path empty = freshPath("empty.obj");
    writeFile(empty, "# written by isoscope: 0 vertices, 0 faces\n");
    CHECK(readMesh(empty).positions.empty());
}

TEST_CASE("mesh parse errors are one line, whatever bytes the file holds", "[mesh][robustness]")
{
    fs::path ascii = freshPath("ascii.ply");
    writeFile(ascii, "ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\nproperty float z\n"
                      "end_header\n0 0 0\nx\ny z\n");
    std::string message = errorMessage([&] { readMesh(ascii); });
    CHECK_THAT(message, Catch::Contains("ascii.ply") && Catch::Contains("cannot read a number"));
    CHECK(message.find('\n') == std::string::npos);

    fs::path header = freshPath("header.ply");
    writeFile(header, std::string("ply\nformat ascii 1.0\nelement vertex 1\nbogus \x1b[31m\r\nend_header\n"));
    message = errorMessage([&] { readMesh(header); });
    CHECK_THAT(message, Catch::Contains("header.ply") && Catch::Contains("bogus"));
    CHECK(message.find_first_of("\n\r\x1b") == std::string::npos);

    fs::path obj = freshPath("long.obj");
    writeFile(obj, "v 1 2\n" + std::string(10000, 'x') + "\n");
    message = errorMessage([&] { readMesh(obj); });
    CHECK_THAT(message, Catch::Contains("long.obj") && Catch::Contains("line 1"));
    CHECK(message.size() < 300);
}

TEST_CASE("a PLY with two vertex elements is refused, not read with normals for only some vertices", "[mesh][robustness]")
{
    // Found by fuzz_ply (tests/fuzz): the positions of both elements were
    // kept, the normals of one, and the mesh broke its own invariant.
    fs::path path = freshPath("two_vertex_elements.ply");
    writeFile(path, "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\n"
                     "property float nx\nproperty float ny\nproperty float nz\nelement vertex 1\nproperty float x\n"
                     "property float y\nproperty float z\nend_header\n0 0 0 0 0 1\n1 1 1\n");
    CHECK_THAT(errorMessage([&] { readMesh(path); }), Catch::Contains("two_vertex_elements.ply") &&
                                                     Catch::Contains("two vertex elements"));
}
