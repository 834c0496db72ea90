// The GLSL side of engine/extract/case_table_gpu.h: the Marching Cubes case
// table and the cube's corner and edge numbering (engine/extract/case_table.h).
// Define CASE_TABLE_BINDING before including.

layout(set = 0, binding = CASE_TABLE_BINDING, std430) readonly buffer CaseTable { uint caseTableWords[]; };

// Nibble i (0 .. 15) of a case's 8 bytes (case_table_gpu.h), from the word that holds it.
uint nibbleInWord(uint word, uint i) { return bitfieldExtract(word, int(i & 7u) * 4, 4); }

uint caseNibble(uint caseIndex, uint i) { return nibbleInWord(caseTableWords[caseIndex * 2u + (i >> 3)], i); }

uint caseTriangleCount(uint caseIndex) { return caseNibble(caseIndex, 0u); }

// A case's 8 bytes in registers, for a loop over its triangles: one load of
// the table per cell instead of one per corner.
uvec2 caseWords(uint caseIndex) { return uvec2(caseTableWords[caseIndex * 2u], caseTableWords[caseIndex * 2u + 1u]); }
// Edge i of the case's triangles (as caseEdge), from its words.
uint caseEdgeIn(uvec2 words, uint i) { return nibbleInWord(words[(1u + i) >> 3], 1u + i); }

// Edge i (0 .. 3 * triangles - 1) of the case's triangles, counter-clockwise
// around the outward normal (toward decreasing values).
uint caseEdge(uint caseIndex, uint i) { return caseNibble(caseIndex, 1u + i); }

// Corner c of a cell sits at (c & 1, (c >> 1) & 1, (c >> 2) & 1).
uvec3 cubeCornerOffset(uint corner) { return uvec3(corner & 1u, (corner >> 1) & 1u, (corner >> 2) & 1u); }

// Edge e = axis * 4 + (u + 2v), (u, v) the lower corner's coordinates on the
// two other axes in increasing axis order.
uint cubeEdgeAxis(uint edge) { return edge >> 2; }

uvec3 cubeEdgeStart(uint edge)
{
    uint axis = edge >> 2;
    uint u = edge & 1u, v = (edge >> 1) & 1u;
    if (axis == 0u)
        return uvec3(0u, u, v);
    if (axis == 1u)
        return uvec3(u, 0u, v);
    return uvec3(u, v, 0u);
}
