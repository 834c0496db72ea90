#pragma once
// The Marching Cubes case table (Lorensen & Cline 1987), generated from a rule
// instead of copied from a published table, and shared by every extractor:
// the CPU reference reads it directly, the GPU methods upload it.
//
// Numbering (all extractors use it):
//   corner c = x + 2y + 4z, one bit per axis: corner c sits at
//       (c & 1, (c >> 1) & 1, (c >> 2) & 1) in the cell.
//   edge e = axis * 4 + (u + 2v), where (u, v) are the coordinates of the
//       edge's lower corner on the two other axes, in increasing axis order;
//       edges 0, 4 and 8 leave corner 0 along x, y and z.
//   case = sum of (1 << c) over the inside corners; a corner is inside when
//       its value is finite and >= iso.
//
// How the table is made (case_table.cpp), so that it is crack-free by
// construction:
//   1. On each of the 6 faces, the crossed edges are joined into segments that
//      cut the face's inside corners off from its outside corners, oriented
//      with the inside on the left as seen from outside the cell. The ambiguous
//      face (diagonal corners equal, 4 crossings) always separates its two
//      inside corners. The segments of a face depend only on that face's four
//      corners, so the two cells sharing a face draw the same segments there
//      (in opposite directions), and no crack can open between them.
//   2. The oriented segments are the boundary of the inside region on the
//      cell's surface, so they chain into closed loops; every crossed edge lies
//      on exactly one loop, once.
//   3. Each loop is fanned into triangles, from a start vertex chosen so that
//      no fan diagonal joins two vertices of one face (such a diagonal would be
//      drawn by the neighbour cell too, and four triangles would share it).
//   4. Triangles are counter-clockwise around the normal that points toward
//      decreasing values (outside, -grad f), as VTK orients them.
// The "separate inside corners" rule gives the same triangle count as VTK's
// vtkMarchingCubes in all 256 cases (tests/vtk/test_cpu_reference_vs_vtk.py).
#include <array>
#include <cstdint>

namespace isoscope {

inline constexpr int kCubeCornerCount = 8;
inline constexpr int kCubeEdgeCount = 12;
inline constexpr int kCubeFaceCount = 6;
inline constexpr int kMarchingCubesCaseCount = 256;
// The most triangles (5) and loops (4) any case has; case_table.cpp checks
// both when it builds the table.
inline constexpr int kMaxTrianglesPerCase = 5;
inline constexpr int kMaxLoopsPerCase = 4;

// The offset of a corner in its cell, one bit per axis.
constexpr std::array<uint8_t, 3> cubeCornerOffset(int corner)
{
    return {uint8_t(corner & 1), uint8_t((corner >> 1) & 1), uint8_t((corner >> 2) & 1)};
}

struct CubeEdge {
    uint8_t corner0; // the end with the lower coordinate along `axis`
    uint8_t corner1; // corner0 + (1 << axis)
    uint8_t axis;    // 0 x, 1 y, 2 z
};

constexpr CubeEdge cubeEdge(int edge)
{
    int axis = edge / 4;
    int u = edge & 1;
    int v = (edge >> 1) & 1;
    // u and v are the two other axes' bits, in increasing axis order.
    int otherLow = axis == 0 ? 1 : 0;
    int otherHigh = axis == 2 ? 1 : 2;
    int corner0 = (u << otherLow) | (v << otherHigh);
    return {uint8_t(corner0), uint8_t(corner0 | (1 << axis)), uint8_t(axis)};
}

// A face f = axis * 2 + side lies at coordinate `side` on `axis`. Its corners
// are listed counter-clockwise as seen from outside the cell, so corner i and
// corner i+1 (mod 4) are joined by edges[i].
struct CubeFace {
    std::array<uint8_t, 4> corners;
    std::array<uint8_t, 4> edges;
};

CubeFace cubeFace(int face);

// The triangles of one case: 3 edge numbers per triangle, counter-clockwise
// around the normal that points toward decreasing values. Unused entries are 0xFF.
struct MarchingCubesCase {
    uint8_t triangleCount = 0;
    std::array<uint8_t, 3 * kMaxTrianglesPerCase> edges{};
};

using MarchingCubesCaseTable = std::array<MarchingCubesCase, kMarchingCubesCaseCount>;

// The table, built once on first use (thread-safe) and never changed.
const MarchingCubesCaseTable& marchingCubesCases();

// The closed loops of one case before triangulation (step 2 above, rotated to
// the fan start of step 3), for tests and for methods that emit polygons. The
// loop order keeps the inside on the left as seen from outside the cell; a
// triangle (loop[0], loop[i+1], loop[i]) is what the table holds.
struct MarchingCubesLoops {
    uint8_t loopCount = 0;
    std::array<uint8_t, kMaxLoopsPerCase> loopSizes{};
    std::array<uint8_t, kCubeEdgeCount> edges{}; // the loops one after another
};

MarchingCubesLoops marchingCubesLoops(int caseIndex);

// The directed segments (from edge, to edge) that case `caseIndex` draws on
// face `face`: 0, 1 or 2 of them (step 1 above).
struct FaceSegments {
    uint8_t count = 0;
    std::array<std::array<uint8_t, 2>, 2> segments{};
};

FaceSegments marchingCubesFaceSegments(int caseIndex, int face);

} // namespace isoscope
