#pragma once
// Which cells of an image-data piece are its own and which are the ghost
// layer a contour filter asks for (one layer, so that the normals at the
// piece's faces are the central differences the whole volume gives), and
// the removal of the triangles of ghost cells, so that the pieces of a
// surface stitch into the whole one with no triangle twice.
#include <array>

class vtkInformation;
class vtkPolyData;

namespace vtkIsoscopeGhostCells {

// The extent of the cells the output's piece owns: the piece the
// downstream request names (UPDATE_PIECE_NUMBER of UPDATE_NUMBER_OF_PIECES),
// split from the input's WHOLE_EXTENT as the pipeline splits it
// (vtkExtentTranslator, UPDATE_SPLIT_MODE or block mode) with no ghost
// level, clipped to the input's extent. The input's extent itself where the
// request names no pieces.
std::array<int, 6> ownedExtent(vtkInformation* inputInfo, vtkInformation* outputInfo, const int inputExtent[6]);

// The sample grid of the input piece: world position of its first sample,
// spacing, and the extent (point indices) it covers.
struct Grid {
    std::array<double, 3> origin{};
    std::array<double, 3> spacing{};
    std::array<int, 6> extent{};
};

// Removes the triangles of `mesh` whose Marching Cubes cell lies outside
// `owned`, and the points only they used (point data follows its points).
// A triangle's cell is found from its vertices, which lie on the cell's
// edges; a triangle lying flat in a face between two cells goes to the
// lower one, on every piece alike. Does nothing when `owned` is the grid's
// whole extent. Returns the number of triangles removed.
long long removeGhostTriangles(vtkPolyData* mesh, const Grid& grid, const std::array<int, 6>& owned);

} // namespace vtkIsoscopeGhostCells
