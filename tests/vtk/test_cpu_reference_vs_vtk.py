#!/usr/bin/python3
"""The CPU reference extractor (isoscope extract --method cpu) against VTK.

Checked, through the CLI:
  1. all 256 cases of a single cell: our triangle count per case equals
     vtkMarchingCubes' (the case table's ambiguous-face rule, "separate the
     inside corners", was chosen to match it);
  2. synthetic fields and the real volumes of $ISOSCOPE_DATASETS at isovalues
     no sample equals: the same triangle count as vtkMarchingCubes and the same
     vertices (one per crossed grid edge, matched by edge, position within
     1e-5 of a spacing); ambiguous cells are counted and printed, since they
     are where two case tables could disagree;
  3. samples equal to iso: our count equals vtkFlyingEdges3D's (every edge
     vertex kept), vtkMarchingCubes reports fewer (it merges coincident points
     and drops the degenerate triangles);
  4. meshcheck: surfaces that should be closed are.
Exit 77 (skipped) when the CLI has not been built.
"""
import json
import os
import shutil
import sys
import tempfile
import time

import numpy as np
import vtk
from vtk.util import numpy_support

from reference_common import BIN, DATASETS, check, failures, isoscope, read_nrrd, read_ply, single_cell_case

# A folder of this run's own, so concurrent runs never read each other's files.
_base = os.environ.get("ISOSCOPE_TEST_TMP", "/tmp")
os.makedirs(_base, exist_ok=True)
TMP = tempfile.mkdtemp(prefix="cpu_reference_vs_vtk-", dir=_base)


# ---- volumes as numpy arrays, indexed [z, y, x] ----

def write_nrrd(path, data, spacing=(1.0, 1.0, 1.0)):
    """An attached float32 or uint8 NRRD of array[z, y, x]."""
    kind = {np.dtype("float32"): "float", np.dtype("uint8"): "uchar"}[data.dtype]
    header = (f"NRRD0004\ntype: {kind}\ndimension: 3\nsizes: {data.shape[2]} {data.shape[1]} {data.shape[0]}\n"
              f"spacings: {spacing[0]} {spacing[1]} {spacing[2]}\nencoding: raw\nendian: little\n\n")
    with open(path, "wb") as f:
        f.write(header.encode())
        f.write(np.ascontiguousarray(data).astype(data.dtype.newbyteorder("<")).tobytes())


# ---- VTK ----

def vtk_image(data, spacing, origin):
    image = vtk.vtkImageData()
    image.SetDimensions(data.shape[2], data.shape[1], data.shape[0])
    image.SetSpacing(*spacing)
    image.SetOrigin(*origin)
    scalars = numpy_support.numpy_to_vtk(data.ravel(), deep=1)
    scalars.SetName("scalars")
    image.GetPointData().SetScalars(scalars)
    return image


def vtk_extract(algorithm, image, iso):
    filter = algorithm()
    filter.SetInputData(image)
    filter.SetValue(0, iso)
    filter.ComputeNormalsOff()
    filter.ComputeGradientsOff()
    filter.Update()
    output = filter.GetOutput()
    points = numpy_support.vtk_to_numpy(output.GetPoints().GetData()) if output.GetNumberOfPoints() else np.zeros((0, 3))
    return output.GetNumberOfCells(), points


# ---- our side ----

METHOD = "cpu"  # test_gpu_methods_vs_vtk.py runs the same checks on the GPU methods


def our_extract(volume, iso, name):
    mesh = os.path.join(TMP, name + ".ply")
    stats = os.path.join(TMP, name + ".json")
    isoscope("extract", volume, "--iso", repr(float(iso)), "--method", METHOD, "--force", "-o", mesh, "--stats", stats)
    with open(stats) as f:
        return json.load(f), mesh


def read_ply_positions(path):
    positions, _ = read_ply(path)
    return positions


def meshcheck(mesh):
    return json.loads(isoscope("meshcheck", mesh, "--json"))


# ---- cell analysis with numpy ----

def inside(data, iso):
    return np.isfinite(data) & (data >= iso)


def count_ambiguous_cells(data, iso):
    """Cells with at least one ambiguous face (diagonal corners equal, the other diagonal different)."""
    s = inside(data, iso)
    ambiguous_face = []
    for axis in range(3):  # faces normal to axis: 2x2 blocks in the other two axes
        a, b = [ax for ax in range(3) if ax != axis]
        def take(da, db):
            index = [slice(None)] * 3
            index[a] = slice(da, s.shape[a] - 1 + da)
            index[b] = slice(db, s.shape[b] - 1 + db)
            return s[tuple(index)]
        c00, c10, c01, c11 = take(0, 0), take(1, 0), take(0, 1), take(1, 1)
        ambiguous_face.append((c00 == c11) & (c10 == c01) & (c00 != c10))
    cells = np.zeros(tuple(n - 1 for n in s.shape), bool)
    for axis, faces in enumerate(ambiguous_face):
        index_low = [slice(None)] * 3
        index_high = [slice(None)] * 3
        index_low[axis] = slice(0, s.shape[axis] - 1)
        index_high[axis] = slice(1, s.shape[axis])
        for index in (index_low, index_high):
            part = faces[tuple(index)]
            trim = [slice(0, n - 1) for n in s.shape]
            trim[axis] = slice(None)
            cells |= part[tuple(trim)]
    return int(cells.sum())


def vertex_keys(points, spacing, origin, shape):
    """Each vertex as (grid edge id, t): the edge runs along the axis on which
    its index is farthest from an integer (float32 positions put integral
    coordinates a few 1e-6 off); the other two indices are rounded."""
    index = (points.astype(np.float64) - np.asarray(origin)) / np.asarray(spacing)  # (x, y, z) order
    off_grid = np.abs(index - np.round(index))
    axis = np.argmax(off_grid, axis=1)
    low = np.round(index)
    rows = np.arange(len(index))
    low[rows, axis] = np.floor(index[rows, axis])
    frac = index[rows, axis] - low[rows, axis]
    low = low.astype(np.int64)
    nx, ny, nz = shape[2], shape[1], shape[0]
    key = ((axis * nz + low[:, 2]) * ny + low[:, 1]) * nx + low[:, 0]
    order = np.argsort(key, kind="stable")
    return key[order], frac[order]


def compare_vertices(ours, theirs, spacing, origin, shape, label):
    key_a, t_a = vertex_keys(ours, spacing, origin, shape)
    key_b, t_b = vertex_keys(theirs, spacing, origin, shape)
    same_edges = len(key_a) == len(key_b) and np.array_equal(key_a, key_b)
    check(same_edges, f"{label}: vertices on the same {len(key_a)} grid edges as vtkMarchingCubes' {len(key_b)}")
    if same_edges and len(t_a):
        worst = float(np.max(np.abs(t_a - t_b)))
        check(worst < 1e-5, f"{label}: vertex positions along their edges agree within {worst:.2e} spacings")


def compare_with_vtk_marching_cubes(volume_path, iso, label, closed=None):
    start = time.time()
    data, spacing, origin = read_nrrd(volume_path)
    stats, mesh = our_extract(volume_path, iso, label.replace(" ", "_").replace(":", "_"))
    image = vtk_image(data, spacing, origin)
    vtk_triangles, vtk_points = vtk_extract(vtk.vtkMarchingCubes, image, iso)
    exact = int(np.count_nonzero(data == np.float32(iso)))
    ambiguous = count_ambiguous_cells(data, np.float32(iso))
    ours = stats["triangles"]
    if exact == 0:
        check(ours == vtk_triangles, f"{label} iso {iso}: {ours} triangles, vtkMarchingCubes {vtk_triangles} "
                                     f"({ambiguous} ambiguous cells)")
        compare_vertices(read_ply_positions(mesh), vtk_points, spacing, origin, data.shape, label)
    else:
        fe_triangles, _ = vtk_extract(vtk.vtkFlyingEdges3D, image, iso)
        check(ours == fe_triangles and vtk_triangles <= ours,
              f"{label} iso {iso}: {exact} samples equal iso; {ours} triangles, vtkFlyingEdges3D {fe_triangles}, "
              f"vtkMarchingCubes {vtk_triangles} (merges and drops degenerate ones)")
    report = meshcheck(mesh)
    label = f"{METHOD}: {label}"
    check(report["non_manifold_edges"] == 0 and report["inconsistent_edges"] == 0,
          f"{label}: meshcheck finds no non-manifold or flipped edges")
    if closed is not None:
        check(report["closed"] == closed, f"{label}: closed is {report['closed']}, expected {closed}")
    print(f"     ({time.time() - start:.1f} s)", flush=True)
    return report


def check_all_256_cases():
    counts = []
    for case in range(256):
        data = single_cell_case(case)
        path = os.path.join(TMP, "case.nrrd")
        write_nrrd(path, data)
        stats, _ = our_extract(path, 0.5, "case")
        vtk_triangles, _ = vtk_extract(vtk.vtkMarchingCubes, vtk_image(data, (1, 1, 1), (0, 0, 0)), 0.5)
        counts.append((stats["triangles"], vtk_triangles))
    matching = sum(ours == theirs for ours, theirs in counts)
    mismatches = [case for case, (ours, theirs) in enumerate(counts) if ours != theirs]
    check(matching == 256, f"single cell: {matching} of 256 cases have vtkMarchingCubes' triangle count"
                           + (f" (differ: {mismatches})" if mismatches else ""))


def check_exact_iso_blob():
    # 2 at the centre, 1 around it, 0 outside; at iso 1 the ring samples equal iso.
    z, y, x = np.mgrid[0:7, 0:7, 0:7]
    distance = abs(x - 3) + abs(y - 3) + abs(z - 3)
    data = np.where(distance == 0, 2, np.where(distance <= 2, 1, 0)).astype(np.uint8)
    path = os.path.join(TMP, "blob.nrrd")
    write_nrrd(path, data)
    report = compare_with_vtk_marching_cubes(path, 1.0, "exact-iso blob", closed=True)
    check(report["degenerate_faces"] > 0 and report["vertices_sharing_position"] > 0,
          f"exact-iso blob: {report['degenerate_faces']} zero-area faces, "
          f"{report['vertices_sharing_position']} vertices sharing a position, Euler {report['euler_characteristic']}")


def main():
    if not BIN or not os.access(BIN, os.X_OK):
        print(f"skipped: the isoscope CLI is not built (ISOSCOPE_BIN='{BIN}')")
        return 77
    os.makedirs(TMP, exist_ok=True)

    check_all_256_cases()
    check_volumes()

    if failures:
        print(f"{len(failures)} checks failed; files kept in {TMP}")
        return 1
    shutil.rmtree(TMP, ignore_errors=True)
    print("all checks passed")
    return 0


def check_volumes():
    """The exact-iso blob, the synthetic fields and the real volumes, with METHOD."""
    check_exact_iso_blob()
    synthetic = [("sphere:40", 0.6, True), ("torus:48", 0.04, True), ("cayley:64", -0.012, False),
                 ("gyroid:40", 0.0, False), ("gyroid:33x41x29", 0.3, False), ("marschner-lobb:41", 0.5, None)]
    for spec, iso, closed in synthetic:
        path = os.path.join(TMP, spec.replace(":", "_") + ".nhdr")
        isoscope("convert", spec, "--force", "-o", path)
        compare_with_vtk_marching_cubes(path, iso, spec, closed)

    manifest = os.path.join(DATASETS, "MANIFEST.md")
    if not DATASETS or not os.path.exists(manifest):
        print(f"WARN skipped the real volumes: no MANIFEST.md in ISOSCOPE_DATASETS='{DATASETS}'")
    else:
        real = [("anatomical_33x41x25_int16.nhdr", [5000.5, 5000.0, 2000.5]),
                ("fmri_128x96x24_int16.nhdr", [300.5, 300.0, 1000.5]),
                ("engine_256x256x128_uint8.nhdr", [60.5, 150.5, 150.0])]
        for name, isovalues in real:
            for iso in isovalues:
                compare_with_vtk_marching_cubes(os.path.join(DATASETS, name), iso, name.split("_")[0])


if __name__ == "__main__":
    sys.exit(main())
