// The Marching Cubes case table: its numbering, and the properties that make
// meshes built from it closed and consistently oriented.
#include <catch2/catch.hpp>

#include <array>
#include <bit>
#include <map>
#include <set>
#include <utility>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include "extract/case_table.h"

using namespace isoscope;

namespace {

bool isInside(int caseIndex, int corner) { return (caseIndex >> corner) & 1; }

bool isCrossed(int caseIndex, int edge)
{
    CubeEdge e = cubeEdge(edge);
    return isInside(caseIndex, e.corner0) != isInside(caseIndex, e.corner1);
}

glm::vec3 cornerPosition(int corner)
{
    auto [x, y, z] = cubeCornerOffset(corner);
    return {float(x), float(y), float(z)};
}

glm::vec3 edgeMidpoint(int edge)
{
    CubeEdge e = cubeEdge(edge);
    return 0.5f * (cornerPosition(e.corner0) + cornerPosition(e.corner1));
}

// The direction of increasing values along an edge: from its outside end to its inside end.
glm::vec3 uphill(int caseIndex, int edge)
{
    CubeEdge e = cubeEdge(edge);
    glm::vec3 along = cornerPosition(e.corner1) - cornerPosition(e.corner0);
    return isInside(caseIndex, e.corner0) ? -along : along;
}

bool isOnFace(int edge, int face)
{
    for (uint8_t e : cubeFace(face).edges)
        if (e == edge)
            return true;
    return false;
}

// The directed triangle sides a case draws inside face `face`.
std::set<std::pair<int, int>> trianglesSidesOnFace(int caseIndex, int face)
{
    std::set<std::pair<int, int>> sides;
    const MarchingCubesCase& entry = marchingCubesCases()[caseIndex];
    for (int t = 0; t < entry.triangleCount; ++t)
        for (int i = 0; i < 3; ++i) {
            int a = entry.edges[3 * t + i], b = entry.edges[3 * t + (i + 1) % 3];
            if (isOnFace(a, face) && isOnFace(b, face))
                sides.insert({a, b});
        }
    return sides;
}

// The edge of the neighbour cell across face (axis, side 1) that coincides
// with `edge` of this cell, which lies on that face.
int edgeSeenFromNeighbour(int edge, int axis)
{
    CubeEdge e = cubeEdge(edge);
    int c0 = e.corner0 & ~(1 << axis), c1 = e.corner1 & ~(1 << axis);
    for (int other = 0; other < kCubeEdgeCount; ++other) {
        CubeEdge o = cubeEdge(other);
        if (o.corner0 == c0 && o.corner1 == c1)
            return other;
    }
    FAIL("no matching edge");
    return -1;
}

} // namespace

TEST_CASE("corners carry one bit per axis and edges are numbered axis*4 + u + 2v", "[mc]")
{
    CHECK(cubeCornerOffset(0) == std::array<uint8_t, 3>{0, 0, 0});
    CHECK(cubeCornerOffset(1) == std::array<uint8_t, 3>{1, 0, 0});
    CHECK(cubeCornerOffset(2) == std::array<uint8_t, 3>{0, 1, 0});
    CHECK(cubeCornerOffset(4) == std::array<uint8_t, 3>{0, 0, 1});
    CHECK(cubeCornerOffset(7) == std::array<uint8_t, 3>{1, 1, 1});
    for (int axis = 0; axis < 3; ++axis) {
        CubeEdge first = cubeEdge(axis * 4);
        CHECK(first.corner0 == 0);
        CHECK(first.corner1 == (1 << axis));
        CHECK(first.axis == axis);
    }
    // Edge 1: along x at y = 1 (u), z = 0; edge 6: along y at x = 0, z = 1 (v);
    // edge 11: along z at x = 1, y = 1.
    CHECK(cubeEdge(1).corner0 == 2);
    CHECK(cubeEdge(6).corner0 == 4);
    CHECK(cubeEdge(11).corner0 == 3);
    CHECK(cubeEdge(11).corner1 == 7);
    std::set<std::pair<int, int>> distinct;
    for (int edge = 0; edge < kCubeEdgeCount; ++edge) {
        CubeEdge e = cubeEdge(edge);
        CHECK(e.corner1 == (e.corner0 | (1 << e.axis)));
        CHECK((e.corner0 & (1 << e.axis)) == 0);
        distinct.insert({e.corner0, e.corner1});
    }
    CHECK(distinct.size() == 12);
}

TEST_CASE("face corners run counter-clockwise around the outward normal", "[mc]")
{
    for (int face = 0; face < kCubeFaceCount; ++face) {
        CubeFace f = cubeFace(face);
        glm::vec3 outward(0.0f);
        outward[face / 2] = face % 2 ? 1.0f : -1.0f;
        for (int i = 0; i < 4; ++i) {
            glm::vec3 a = cornerPosition(f.corners[i]), b = cornerPosition(f.corners[(i + 1) % 4]),
                      c = cornerPosition(f.corners[(i + 2) % 4]);
            CHECK(glm::dot(glm::cross(b - a, c - b), outward) > 0.0f);
            CHECK(a[face / 2] == float(face % 2));
            CubeEdge e = cubeEdge(f.edges[i]);
            CHECK(std::set<int>{e.corner0, e.corner1} == std::set<int>{f.corners[i], f.corners[(i + 1) % 4]});
        }
    }
}

TEST_CASE("every case's loops are closed and use each intersected edge exactly once", "[mc]")
{
    for (int caseIndex = 0; caseIndex < kMarchingCubesCaseCount; ++caseIndex) {
        CAPTURE(caseIndex);
        MarchingCubesLoops loops = marchingCubesLoops(caseIndex);
        std::map<int, int> uses;
        int offset = 0;
        for (int loop = 0; loop < loops.loopCount; ++loop) {
            int size = loops.loopSizes[loop];
            CHECK(size >= 3);
            for (int i = 0; i < size; ++i) {
                int from = loops.edges[offset + i], to = loops.edges[offset + (i + 1) % size];
                ++uses[from];
                // Consecutive loop vertices, the last back to the first, are
                // joined by a segment drawn on a face both edges lie on.
                bool drawnOnAFace = false;
                for (int face = 0; face < kCubeFaceCount; ++face) {
                    FaceSegments segments = marchingCubesFaceSegments(caseIndex, face);
                    for (int s = 0; s < segments.count; ++s)
                        drawnOnAFace |= segments.segments[s][0] == from && segments.segments[s][1] == to;
                }
                CHECK(drawnOnAFace);
            }
            offset += size;
        }
        for (int edge = 0; edge < kCubeEdgeCount; ++edge)
            CHECK(uses[edge] == (isCrossed(caseIndex, edge) ? 1 : 0));
    }
}

TEST_CASE("each case fans its loops: triangles = crossed edges - 2 * loops, at most 5", "[mc]")
{
    int largest = 0;
    for (int caseIndex = 0; caseIndex < kMarchingCubesCaseCount; ++caseIndex) {
        CAPTURE(caseIndex);
        int crossed = 0;
        for (int edge = 0; edge < kCubeEdgeCount; ++edge)
            crossed += isCrossed(caseIndex, edge);
        const MarchingCubesCase& entry = marchingCubesCases()[caseIndex];
        CHECK(entry.triangleCount == crossed - 2 * marchingCubesLoops(caseIndex).loopCount);
        for (int i = 0; i < 3 * kMaxTrianglesPerCase; ++i)
            CHECK((i < 3 * entry.triangleCount ? isCrossed(caseIndex, entry.edges[i]) : entry.edges[i] == 0xFF));
        largest = std::max(largest, int(entry.triangleCount));
    }
    CHECK(largest == kMaxTrianglesPerCase);
    CHECK(marchingCubesCases()[0].triangleCount == 0);
    CHECK(marchingCubesCases()[255].triangleCount == 0);
    CHECK(marchingCubesCases()[1].triangleCount == 1);
}

TEST_CASE("a case with E crossed edges has E - 2 triangles where E <= 5, and where E is 6 or 7 with bit 1 of its inside "
          "corners' count clear",
          "[mc]")
{
    // shaders/extract/histopyramid/base.comp counts triangles by this rule and loads the table only for the exceptions.
    int byRule = 0;
    for (int caseIndex = 1; caseIndex < kMarchingCubesCaseCount - 1; ++caseIndex) {
        CAPTURE(caseIndex);
        int crossed = 0;
        for (int edge = 0; edge < kCubeEdgeCount; ++edge)
            crossed += isCrossed(caseIndex, edge);
        int inside = std::popcount(unsigned(caseIndex));
        bool fromTable = crossed >= 8 || ((crossed == 6 || crossed == 7) && (inside & 2));
        if (!fromTable) {
            CHECK(int(marchingCubesCases()[caseIndex].triangleCount) == crossed - 2);
            ++byRule;
        }
    }
    CHECK(byRule == 150); // the table is loaded for the other 104 of the 254 cases with crossed edges
}

TEST_CASE("an ambiguous face separates its two inside corners", "[mc]")
{
    // Face z = 0 with corners 0 and 3 inside (diagonal), 1 and 2 outside.
    int caseIndex = (1 << 0) | (1 << 3);
    FaceSegments segments = marchingCubesFaceSegments(caseIndex, 4);
    REQUIRE(segments.count == 2);
    for (int s = 0; s < 2; ++s) {
        // Each segment joins the two crossed edges of one inside corner.
        CubeEdge a = cubeEdge(segments.segments[s][0]), b = cubeEdge(segments.segments[s][1]);
        std::set<int> cornersA{a.corner0, a.corner1}, cornersB{b.corner0, b.corner1};
        int shared = 0;
        for (int corner : cornersA)
            if (cornersB.count(corner))
                shared = corner;
        CHECK((shared == 0 || shared == 3));
    }
    CHECK(marchingCubesCases()[caseIndex].triangleCount == 2);
}

TEST_CASE("cells that share a face draw the same segments on it, in opposite directions (no cracks)", "[mc]")
{
    // For each case and each face on the high side of an axis, every
    // neighbour whose shared face has the same corners must draw exactly the
    // face's segments, reversed, and nothing else on that face: no crack, and
    // no fan diagonal that both cells would draw.
    for (int caseIndex = 0; caseIndex < kMarchingCubesCaseCount; ++caseIndex)
        for (int axis = 0; axis < 3; ++axis) {
            CAPTURE(caseIndex, axis);
            int face = axis * 2 + 1;
            std::set<std::pair<int, int>> mine = trianglesSidesOnFace(caseIndex, face);
            FaceSegments segments = marchingCubesFaceSegments(caseIndex, face);
            std::set<std::pair<int, int>> expected;
            for (int s = 0; s < segments.count; ++s) // triangles run against the loops (see case_table.h)
                expected.insert({segments.segments[s][1], segments.segments[s][0]});
            CHECK(mine == expected);

            int sharedCorners = 0; // the neighbour's low-side corners are our high-side ones
            for (int corner = 0; corner < kCubeCornerCount; ++corner)
                if ((corner & (1 << axis)) && isInside(caseIndex, corner))
                    sharedCorners |= 1 << (corner & ~(1 << axis));
            std::set<std::pair<int, int>> mirrored;
            for (auto [a, b] : mine)
                mirrored.insert({edgeSeenFromNeighbour(b, axis), edgeSeenFromNeighbour(a, axis)});
            for (int farCorners = 0; farCorners < 16; ++farCorners) {
                int neighbour = sharedCorners, bit = 0;
                for (int corner = 0; corner < kCubeCornerCount; ++corner)
                    if (corner & (1 << axis)) {
                        if (farCorners >> bit & 1)
                            neighbour |= 1 << corner;
                        ++bit;
                    }
                CHECK(trianglesSidesOnFace(neighbour, axis * 2) == mirrored);
            }
        }
}

TEST_CASE("each loop's triangles face decreasing values", "[mc]")
{
    // With vertices at edge midpoints, the summed normal of a loop's
    // triangles must point against the summed uphill direction of its edges.
    for (int caseIndex = 1; caseIndex < kMarchingCubesCaseCount - 1; ++caseIndex) {
        CAPTURE(caseIndex);
        const MarchingCubesCase& entry = marchingCubesCases()[caseIndex];
        MarchingCubesLoops loops = marchingCubesLoops(caseIndex);
        int triangle = 0, offset = 0;
        for (int loop = 0; loop < loops.loopCount; ++loop) {
            int size = loops.loopSizes[loop];
            glm::vec3 area(0.0f), rising(0.0f);
            for (int i = 0; i < size; ++i)
                rising += uphill(caseIndex, loops.edges[offset + i]);
            for (int t = 0; t < size - 2; ++t, ++triangle) {
                const uint8_t* e = entry.edges.data() + 3 * triangle;
                glm::vec3 a = edgeMidpoint(e[0]), b = edgeMidpoint(e[1]), c = edgeMidpoint(e[2]);
                area += glm::cross(b - a, c - a);
            }
            CHECK(glm::dot(area, rising) < 0.0f);
            offset += size;
        }
        CHECK(triangle == entry.triangleCount);
    }
}

TEST_CASE("complementary cases have the same crossed edges and opposite orientation", "[mc]")
{
    // Not the same triangles (the ambiguous-face rule is not symmetric under
    // complement), but every loop of case c must face the other way in ~c:
    // one-inside-corner cases are the simplest check.
    for (int corner = 0; corner < kCubeCornerCount; ++corner) {
        int single = 1 << corner, complement = 0xFF & ~single;
        const MarchingCubesCase& a = marchingCubesCases()[single];
        const MarchingCubesCase& b = marchingCubesCases()[complement];
        REQUIRE(a.triangleCount == 1);
        REQUIRE(b.triangleCount == 1);
        glm::vec3 na = glm::cross(edgeMidpoint(a.edges[1]) - edgeMidpoint(a.edges[0]),
                                  edgeMidpoint(a.edges[2]) - edgeMidpoint(a.edges[0]));
        glm::vec3 nb = glm::cross(edgeMidpoint(b.edges[1]) - edgeMidpoint(b.edges[0]),
                                  edgeMidpoint(b.edges[2]) - edgeMidpoint(b.edges[0]));
        CHECK(glm::dot(na, nb) < 0.0f);
        // The lone inside corner lies behind its triangle's normal.
        CHECK(glm::dot(na, cornerPosition(corner) - edgeMidpoint(a.edges[0])) < 0.0f);
    }
}
