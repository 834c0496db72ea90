#include "extract/case_table.h"

#include <string>

#include "core/error.h"

namespace isoscope {

namespace {

bool isInside(int caseIndex, int corner) { return (caseIndex >> corner) & 1; }

int edgeBetween(int cornerA, int cornerB)
{
    for (int edge = 0; edge < kCubeEdgeCount; ++edge) {
        CubeEdge e = cubeEdge(edge);
        if ((e.corner0 == cornerA && e.corner1 == cornerB) || (e.corner0 == cornerB && e.corner1 == cornerA))
            return edge;
    }
    fail("marching cubes table: corners " + std::to_string(cornerA) + " and " + std::to_string(cornerB) +
         " share no edge");
}

// Whether two cube edges lie on one face of the cell.
bool shareFace(int edgeA, int edgeB)
{
    for (int face = 0; face < kCubeFaceCount; ++face) {
        CubeFace f = cubeFace(face);
        bool hasA = false, hasB = false;
        for (uint8_t edge : f.edges) {
            hasA |= edge == edgeA;
            hasB |= edge == edgeB;
        }
        if (hasA && hasB)
            return true;
    }
    return false;
}

// A fan from loop[start] adds the diagonals loop[start]-loop[start+i] for
// 2 <= i <= n-2; none may join two vertices of one face, or the neighbour
// cell across that face could draw the same diagonal.
bool isSafeFanStart(const uint8_t* loop, int size, int start)
{
    for (int i = 2; i <= size - 2; ++i)
        if (shareFace(loop[start], loop[(start + i) % size]))
            return false;
    return true;
}

MarchingCubesCaseTable buildTable()
{
    MarchingCubesCaseTable table{};
    for (int caseIndex = 0; caseIndex < kMarchingCubesCaseCount; ++caseIndex) {
        MarchingCubesLoops loops = marchingCubesLoops(caseIndex);
        MarchingCubesCase& entry = table[caseIndex];
        entry.edges.fill(0xFF);
        int offset = 0;
        for (int loop = 0; loop < loops.loopCount; ++loop) {
            const uint8_t* vertices = loops.edges.data() + offset;
            int size = loops.loopSizes[loop];
            // The loop runs with the inside on its left as seen from outside
            // the cell, which makes (v0, v1, v2) counter-clockwise around the
            // normal pointing to the inside; reversing each triangle turns its
            // normal toward decreasing values.
            for (int i = 1; i + 1 < size; ++i) {
                if (entry.triangleCount == kMaxTrianglesPerCase)
                    fail("marching cubes table: case " + std::to_string(caseIndex) + " needs more than " +
                         std::to_string(kMaxTrianglesPerCase) + " triangles");
                uint8_t* triangle = entry.edges.data() + 3 * entry.triangleCount++;
                triangle[0] = vertices[0];
                triangle[1] = vertices[i + 1];
                triangle[2] = vertices[i];
            }
            offset += size;
        }
    }
    return table;
}

} // namespace

CubeFace cubeFace(int face)
{
    int axis = face / 2;
    int side = face % 2;
    int otherLow = axis == 0 ? 1 : 0;
    int otherHigh = axis == 2 ? 1 : 2;
    // Counter-clockwise in the (otherLow, otherHigh) plane, which is
    // counter-clockwise around e_otherLow x e_otherHigh: +x for axis x, -y for
    // axis y, +z for axis z.
    constexpr int square[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    CubeFace result{};
    for (int i = 0; i < 4; ++i)
        result.corners[i] = uint8_t((side << axis) | (square[i][0] << otherLow) | (square[i][1] << otherHigh));
    bool squareFacesPositive = axis != 1;
    bool outwardIsPositive = side == 1;
    if (squareFacesPositive != outwardIsPositive)
        result.corners = {result.corners[3], result.corners[2], result.corners[1], result.corners[0]};
    for (int i = 0; i < 4; ++i)
        result.edges[i] = uint8_t(edgeBetween(result.corners[i], result.corners[(i + 1) % 4]));
    return result;
}

FaceSegments marchingCubesFaceSegments(int caseIndex, int face)
{
    CubeFace f = cubeFace(face);
    // Walk the face's border counter-clockwise (seen from outside) and note
    // each crossing and whether the walk leaves the inside there.
    struct Crossing {
        uint8_t edge;
        bool leavesInside;
    };
    Crossing crossings[4];
    int count = 0;
    for (int i = 0; i < 4; ++i) {
        bool from = isInside(caseIndex, f.corners[i]);
        bool to = isInside(caseIndex, f.corners[(i + 1) % 4]);
        if (from != to)
            crossings[count++] = {f.edges[i], from};
    }
    // Each inside stretch of the border runs from an entering crossing to the
    // next leaving one; closing it with a segment from that leaving crossing
    // back to the entering one keeps the inside on the segment's left. With
    // four crossings this cuts each inside corner off on its own: the
    // ambiguous face always separates its inside corners, which is the choice
    // that reproduces vtkMarchingCubes' triangle counts.
    FaceSegments result;
    for (int i = 0; i < count; ++i)
        if (crossings[i].leavesInside)
            result.segments[result.count++] = {crossings[i].edge, crossings[(i + count - 1) % count].edge};
    return result;
}

MarchingCubesLoops marchingCubesLoops(int caseIndex)
{
    constexpr uint8_t none = 0xFF;
    std::array<uint8_t, kCubeEdgeCount> next;
    next.fill(none);
    for (int face = 0; face < kCubeFaceCount; ++face) {
        FaceSegments segments = marchingCubesFaceSegments(caseIndex, face);
        for (int s = 0; s < segments.count; ++s) {
            auto [from, to] = segments.segments[s];
            if (next[from] != none)
                fail("marching cubes table: case " + std::to_string(caseIndex) + " leaves edge " +
                     std::to_string(from) + " twice");
            next[from] = to;
        }
    }

    MarchingCubesLoops loops;
    std::array<bool, kCubeEdgeCount> used{};
    int offset = 0;
    // Loops start at their lowest edge, in increasing order, so the table is
    // the same on every build.
    for (int start = 0; start < kCubeEdgeCount; ++start) {
        if (next[start] == none || used[start])
            continue;
        uint8_t loop[kCubeEdgeCount];
        int size = 0;
        for (int edge = start; !used[edge]; edge = next[edge]) {
            used[edge] = true;
            loop[size++] = uint8_t(edge);
            if (next[edge] == none)
                fail("marching cubes table: case " + std::to_string(caseIndex) + " has an open loop at edge " +
                     std::to_string(edge));
        }
        if (next[loop[size - 1]] != start)
            fail("marching cubes table: case " + std::to_string(caseIndex) + " has a loop that does not close");
        int fanStart = 0;
        while (fanStart < size && !isSafeFanStart(loop, size, fanStart))
            ++fanStart;
        if (fanStart == size || loops.loopCount == kMaxLoopsPerCase)
            fail("marching cubes table: case " + std::to_string(caseIndex) + " cannot be triangulated");
        for (int i = 0; i < size; ++i)
            loops.edges[offset + i] = loop[(fanStart + i) % size];
        loops.loopSizes[loops.loopCount++] = uint8_t(size);
        offset += size;
    }
    return loops;
}

const MarchingCubesCaseTable& marchingCubesCases()
{
    static const MarchingCubesCaseTable table = buildTable();
    return table;
}

} // namespace isoscope
