#include "vtkIsoscopeGhostCells.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <vtkCellArray.h>
#include <vtkCellArrayIterator.h>
#include <vtkExtentTranslator.h>
#include <vtkIdList.h>
#include <vtkInformation.h>
#include <vtkInformationIntegerRequestKey.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <vtkStreamingDemandDrivenPipeline.h>

namespace vtkIsoscopeGhostCells {

std::array<int, 6> ownedExtent(vtkInformation* inputInfo, vtkInformation* outputInfo, const int inputExtent[6])
{
    using Pipeline = vtkStreamingDemandDrivenPipeline;
    std::array<int, 6> owned;
    std::copy(inputExtent, inputExtent + 6, owned.begin());
    if (!inputInfo || !outputInfo || !inputInfo->Has(Pipeline::WHOLE_EXTENT()) ||
        !outputInfo->Has(Pipeline::UPDATE_NUMBER_OF_PIECES()) || outputInfo->Get(Pipeline::UPDATE_NUMBER_OF_PIECES()) <= 1)
        return owned;
    int whole[6], zeroGhost[6];
    inputInfo->Get(Pipeline::WHOLE_EXTENT(), whole);
    const int splitMode = inputInfo->Has(vtkExtentTranslator::UPDATE_SPLIT_MODE())
        ? inputInfo->Get(vtkExtentTranslator::UPDATE_SPLIT_MODE()) : int(vtkExtentTranslator::BLOCK_MODE);
    vtkNew<vtkExtentTranslator> translator;
    translator->PieceToExtentThreadSafe(outputInfo->Get(Pipeline::UPDATE_PIECE_NUMBER()),
                                        outputInfo->Get(Pipeline::UPDATE_NUMBER_OF_PIECES()), 0, whole, zeroGhost,
                                        splitMode, 0);
    for (int axis = 0; axis < 3; ++axis) {
        owned[2 * axis] = std::max(inputExtent[2 * axis], zeroGhost[2 * axis]);
        owned[2 * axis + 1] = std::min(inputExtent[2 * axis + 1], zeroGhost[2 * axis + 1]);
    }
    return owned;
}

long long removeGhostTriangles(vtkPolyData* mesh, const Grid& grid, const std::array<int, 6>& owned)
{
    if (owned == grid.extent || !mesh->GetPolys() || mesh->GetNumberOfPolys() == 0)
        return 0;
    // Vertices are float world positions: a vertex within this many cells of
    // a grid plane counts as on it (float32 keeps about 7 digits).
    constexpr double onPlane = 1e-4;
    vtkPoints* points = mesh->GetPoints();
    std::vector<vtkIdType> newId(size_t(mesh->GetNumberOfPoints()), -1);
    vtkNew<vtkIdList> keptPoints; // old ids, in their new order
    vtkNew<vtkCellArray> kept;
    long long removed = 0;
    auto cells = vtk::TakeSmartPointer(mesh->GetPolys()->NewIterator());
    for (cells->GoToFirstCell(); !cells->IsDoneWithTraversal(); cells->GoToNextCell()) {
        vtkIdType count;
        const vtkIdType* ids;
        cells->GetCurrentCell(count, ids);
        bool mine = count > 0;
        for (int axis = 0; axis < 3 && mine; ++axis) {
            // The cell is the one whose upper face is the first grid plane at
            // or above the highest vertex: for a triangle across the cell that
            // is its own cell, for one flat in a face the lower of the two.
            double highest = -INFINITY;
            for (vtkIdType k = 0; k < count; ++k)
                highest = std::max(highest, (points->GetPoint(ids[k])[axis] - grid.origin[axis]) / grid.spacing[axis]);
            const int cellsAlong = grid.extent[2 * axis + 1] - grid.extent[2 * axis];
            const int cell = std::clamp(int(std::ceil(highest - onPlane)) - 1, 0, std::max(cellsAlong - 1, 0));
            const int absolute = grid.extent[2 * axis] + cell;
            mine = absolute >= owned[2 * axis] && absolute < owned[2 * axis + 1];
        }
        if (!mine) {
            ++removed;
            continue;
        }
        std::vector<vtkIdType> mapped(static_cast<size_t>(count));
        for (vtkIdType k = 0; k < count; ++k) {
            vtkIdType& id = newId[size_t(ids[k])];
            if (id < 0) {
                id = keptPoints->GetNumberOfIds();
                keptPoints->InsertNextId(ids[k]);
            }
            mapped[size_t(k)] = id;
        }
        kept->InsertNextCell(count, mapped.data());
    }
    if (removed == 0)
        return 0;
    vtkNew<vtkPoints> keptPositions;
    keptPositions->SetDataType(points->GetDataType());
    points->GetPoints(keptPoints, keptPositions);
    vtkNew<vtkPointData> keptData;
    keptData->CopyAllocate(mesh->GetPointData(), keptPoints->GetNumberOfIds());
    for (vtkIdType i = 0; i < keptPoints->GetNumberOfIds(); ++i)
        keptData->CopyData(mesh->GetPointData(), keptPoints->GetId(i), i);
    mesh->SetPoints(keptPositions);
    mesh->SetPolys(kept);
    mesh->GetPointData()->ShallowCopy(keptData);
    return removed;
}

} // namespace vtkIsoscopeGhostCells
