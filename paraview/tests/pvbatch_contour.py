"""The ParaView plugin "Isoscope Contour" beside vtkFlyingEdges3D, run by
pvpython (serial) or `mpirun -np N pvbatch --symmetric` (every rank runs this
script on its piece):

- the plugin loads and paraview.simple has IsoscopeContour;
- per piece: isoscope's triangles equal FlyingEdges' over the cells the piece
  owns (the filter is handed a ghost layer and drops its triangles), every
  isoscope vertex on a FlyingEdges vertex (within 1e-5 of the spacing);
- in total: the pieces' triangles sum to FlyingEdges' on the whole volume;
- the .pvtp ParaView writes opens with VTK's XML reader and is the whole
  volume's isoscope surface: as many triangles, the same vertices both ways,
  the same normals. So serial and every rank count give the same merged mesh.

On the synthetic field (ParaView's Wavelet, float32, three isovalues) and a
real volume of ../shared/datasets (int16 fMRI, read by ParaView's NRRD
reader; skipped with a message where ../shared is absent).

usage: pvbatch --symmetric pvbatch_contour.py PLUGIN OUT_DIR DATASETS_DIR
"""
import math
import os
import sys

import paraview.simple as pvs
from vtkmodules.vtkCommonDataModel import vtkImageData, vtkStaticPointLocator
from vtkmodules.vtkCommonExecutionModel import vtkExtentTranslator, vtkStreamingDemandDrivenPipeline
from vtkmodules.vtkFiltersCore import vtkFlyingEdges3D
from vtkmodules.vtkIOXML import vtkXMLPPolyDataReader
from vtkmodules.vtkParallelCore import vtkCommunicator, vtkMultiProcessController

plugin, out_dir, datasets = sys.argv[1:4]
controller = vtkMultiProcessController.GetGlobalController()
rank = controller.GetLocalProcessId() if controller else 0
ranks = controller.GetNumberOfProcesses() if controller else 1
failures = []


def fail(what):
    print(f"FAIL (rank {rank} of {ranks}): {what}", file=sys.stderr, flush=True)
    failures.append(what)


def total(value):
    """The sum of `value` over the ranks."""
    if ranks == 1:
        return value
    from vtkmodules.vtkCommonCore import vtkIdTypeArray
    mine, summed = vtkIdTypeArray(), vtkIdTypeArray()
    mine.InsertNextValue(int(value))
    summed.SetNumberOfValues(1)
    controller.AllReduce(mine, summed, vtkCommunicator.SUM_OP)
    return summed.GetValue(0)


def worst_match(mesh, reference):
    """Largest distance from a vertex of `mesh` to the nearest vertex of
    `reference`, and the largest difference of their normals."""
    if mesh.GetNumberOfPoints() == 0:
        return 0.0, 0.0
    if reference.GetNumberOfPoints() == 0:
        return math.inf, math.inf
    locator = vtkStaticPointLocator()
    locator.SetDataSet(reference)
    locator.BuildLocator()
    normals, reference_normals = mesh.GetPointData().GetNormals(), reference.GetPointData().GetNormals()
    distance = normal = 0.0
    for i in range(mesh.GetNumberOfPoints()):
        p = mesh.GetPoint(i)
        nearest = locator.FindClosestPoint(p)
        distance = max(distance, math.dist(p, reference.GetPoint(nearest)))
        if normals and reference_normals:
            normal = max(normal, math.dist(normals.GetTuple3(i), reference_normals.GetTuple3(nearest)))
    return distance, normal


def flying_edges(image, array, isovalues):
    contour = vtkFlyingEdges3D()
    contour.SetInputData(image)
    contour.SetInputArrayToProcess(0, 0, 0, 0, array)  # point data
    for i, value in enumerate(isovalues):
        contour.SetValue(i, value)
    contour.Update()
    return contour.GetOutput()


def owned_extent(algorithm):
    """The cells this rank's piece owns: the pipeline's split (block mode) of
    the whole extent, without ghosts."""
    translator = vtkExtentTranslator()
    translator.SetWholeExtent(algorithm.GetOutputInformation(0).Get(vtkStreamingDemandDrivenPipeline.WHOLE_EXTENT()))
    translator.SetPiece(rank)
    translator.SetNumberOfPieces(ranks)
    translator.SetGhostLevel(0)
    translator.SetSplitModeToBlock()
    translator.PieceToExtent()
    owned = list(translator.GetExtent())
    return owned


def compare(name, make_source, array, isovalues):
    source = make_source()
    isoscope = pvs.IsoscopeContour(Input=source, ContourBy=["POINTS", array], Isosurfaces=isovalues, Validation=1)
    isoscope.UpdatePipeline()
    mine = isoscope.GetClientSideObject().GetOutputDataObject(0)
    triangles = mine.GetNumberOfCells()

    # vtkFlyingEdges3D on the cells this piece owns, cut out of the very
    # image data (ghost layer included) the plugin was handed.
    given = source.GetClientSideObject().GetOutputDataObject(0)
    piece = vtkImageData()
    piece.ShallowCopy(given)
    owned = owned_extent(source.GetClientSideObject())
    extent = piece.GetExtent()
    if ranks > 1 and all(extent[2 * a] >= owned[2 * a] and extent[2 * a + 1] <= owned[2 * a + 1] for a in range(3)):
        fail(f"{name}: the piece came without a ghost layer ({extent}, owned {owned})")
    piece.Crop(owned)
    theirs = flying_edges(piece, array, isovalues)
    if triangles != theirs.GetNumberOfCells():
        fail(f"{name}: {triangles} triangles on piece {rank}, FlyingEdges {theirs.GetNumberOfCells()}")
    tolerance = 1e-5 * min(given.GetSpacing())
    distance, _ = worst_match(mine, theirs)
    if not distance <= tolerance:
        fail(f"{name}: an isoscope vertex lies {distance:.3g} from every FlyingEdges vertex (tolerance {tolerance:.3g})")
    if triangles and not mine.GetPointData().GetNormals():
        fail(f"{name}: no point normals")

    # The whole volume, on every rank (a parallel reader reads collectively).
    whole_source = make_source()
    whole_source.GetClientSideObject().UpdatePiece(0, 1, 0)
    whole_image = vtkImageData()
    whole_image.ShallowCopy(whole_source.GetClientSideObject().GetOutputDataObject(0))
    reference = flying_edges(whole_image, array, isovalues)
    summed = total(triangles)
    if summed != reference.GetNumberOfCells():
        fail(f"{name}: {summed} triangles over {ranks} piece(s), FlyingEdges on the whole volume "
             f"{reference.GetNumberOfCells()}")
    whole_isoscope = pvs.IsoscopeContour(Input=whole_source, ContourBy=["POINTS", array], Isosurfaces=isovalues,
                                         Validation=1)
    whole_isoscope.GetClientSideObject().UpdatePiece(0, 1, 0)
    whole = whole_isoscope.GetClientSideObject().GetOutputDataObject(0)

    # ParaView's parallel writer, each rank its piece; VTK's reader reads the whole.
    subgroup = os.environ.get("ISOSCOPE_EXPECT_SUBGROUP_SIZE", "any")
    path = os.path.join(out_dir, f"{name}-{ranks}ranks-sg{subgroup}.pvtp")
    pvs.SaveData(path, proxy=isoscope)
    if controller:
        controller.Barrier()
    if rank == 0:
        reader = vtkXMLPPolyDataReader()
        reader.SetFileName(path)
        reader.Update()
        merged = reader.GetOutput()
        if merged.GetNumberOfCells() != summed:
            fail(f"{name}: {path} reads back with {merged.GetNumberOfCells()} triangles, written {summed}")
        there, back = worst_match(merged, whole), worst_match(whole, merged)
        normal_tolerance = 1e-3  # float noise: 4e-5 seen; without the ghost layer: 0.43 on the wavelet
        if (whole.GetNumberOfCells() != merged.GetNumberOfCells() or not max(there[0], back[0]) <= tolerance
                or not max(there[1], back[1]) <= normal_tolerance):
            fail(f"{name}: the merged pieces ({merged.GetNumberOfCells()} triangles) differ from the whole volume's "
                 f"surface ({whole.GetNumberOfCells()}): vertices {max(there[0], back[0]):.3g} apart, normals "
                 f"{max(there[1], back[1]):.3g}")
        print(f"{name}: {summed} triangles over {ranks} piece(s), equal to FlyingEdges per piece and in total; "
              f"vertices within {distance:.2g} (tolerance {tolerance:.2g}); {path} reads back as the whole volume's "
              f"surface (normals within {max(there[1], back[1]):.2g})", flush=True)
    for proxy in (whole_isoscope, whole_source, isoscope, source):
        pvs.Delete(proxy)


pvs.LoadPlugin(plugin)  # adds the filter to paraview.simple itself
if not hasattr(pvs, "IsoscopeContour"):
    raise RuntimeError(f"{plugin} loaded, but paraview.simple has no IsoscopeContour")
os.makedirs(out_dir, exist_ok=True)

compare("wavelet", lambda: pvs.Wavelet(WholeExtent=[-16, 16, -16, 16, -16, 16]), "RTData", [100.0, 160.0, 220.0])
fmri = os.path.join(datasets, "fmri_128x96x24_int16.nhdr")
if os.path.isfile(fmri):
    compare("fmri-int16", lambda: pvs.NrrdReader(FileName=fmri), "ImageFile", [300.5])
elif rank == 0:
    print(f"SKIP fmri-int16: {fmri} not found (../shared/datasets is absent)", flush=True)

failed = total(len(failures))
if rank == 0:
    print(f"{'FAILED' if failed else 'passed'}: {failed} failure(s) over {ranks} rank(s)", flush=True)
# An exception, not sys.exit(): pvbatch then finalizes MPI and exits with 1.
if failed:
    raise RuntimeError(f"{failed} failure(s) over {ranks} rank(s)")
