#pragma once
// Small meshes with known answers, for the mesh reader, writer and check
// tests; the scratch folder and error capture of file_test_support.h.
#include "file_test_support.h"
#include "mesh/mesh.h"

namespace meshtest {

namespace fs = std::filesystem;
using isoscope::Mesh;
using filetest::errorMessage;
using filetest::writeFile;

// A file in the mesh tests' scratch folder; tests write and read it back.
inline fs::path tmpPath(const std::string& name)
{
    return filetest::scratchPath("mesh", name);
}

// The same with whatever an earlier run left there removed.
inline fs::path freshPath(const std::string& name)
{
    return filetest::freshScratchPath("mesh", name);
}

// A unit tetrahedron, counter-clockwise seen from outside.
inline Mesh tetrahedron()
{
    Mesh mesh;
    mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    mesh.indices = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    return mesh;
}

// A unit cube of quads, counter-clockwise seen from outside.
inline Mesh quadCube()
{
    Mesh mesh;
    mesh.faceSize = 4;
    for (int c = 0; c < 8; ++c)
        mesh.positions.push_back({float(c & 1), float(c >> 1 & 1), float(c >> 2 & 1)});
    mesh.indices = {0, 2, 3, 1, 4, 5, 7, 6, 0, 1, 5, 4, 2, 6, 7, 3, 0, 4, 6, 2, 1, 3, 7, 5};
    return mesh;
}

} // namespace meshtest
