#!/usr/bin/python3
"""The mesh writers (.stl, .vtp, .gltf, .glb) read back by independent readers.

One mesh is extracted (`isoscope extract --method cpu`) and written in every
format; the PLY (read with numpy, as in the CPU reference tests) is the
reference. Checked:
  1. binary STL: VTK's vtkSTLReader gives the same triangles, corner by
     corner, bit for bit; the facet normals (parsed with numpy) are the unit
     normals of the windings;
  2. VTP: VTK's vtkXMLPolyDataReader gives the same points in the same order,
     the same connectivity and the PLY's normals;
  3. glTF and GLB: the Khronos glTF validator (npm package gltf-validator,
     skipped with a message when absent) reports no errors; VTK's
     vtkGLTFReader gives the same points and triangles;
for a mesh on an oblique, flipped NIfTI grid (world coordinates through its
matrix: every format must carry the same mapped positions) and, when
$ISOSCOPE_DATASETS has it, the engine CT.
Exit 77 (skipped) when the CLI has not been built.
"""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import vtk
from vtk.util.numpy_support import vtk_to_numpy

from reference_common import BIN, DATASETS, check, isoscope, finish, read_ply_with_normals, scratch_folder

TMP = ""
FORMATS = ["ply", "stl", "vtp", "gltf", "glb"]


def polydata_arrays(polydata):
    points = vtk_to_numpy(polydata.GetPoints().GetData()).astype(np.float32)
    polys = polydata.GetPolys()
    offsets = vtk_to_numpy(polys.GetOffsetsArray())
    connectivity = vtk_to_numpy(polys.GetConnectivityArray()).astype(np.int64)
    sizes = np.diff(offsets)
    return points, connectivity, sizes


def corners(points, triangles):
    """(m, 9) float32: each triangle's three corners in order."""
    return points[triangles].reshape(len(triangles), 9)


def check_stl(path, positions, triangles, name):
    reader = vtk.vtkSTLReader()
    reader.SetFileName(path)
    reader.Update()
    points, connectivity, sizes = polydata_arrays(reader.GetOutput())
    check(len(sizes) == len(triangles) and np.all(sizes == 3),
          f"{name}.stl: vtkSTLReader reads {len(sizes)} triangles, PLY has {len(triangles)}")
    if len(sizes) == len(triangles):
        theirs = corners(points, connectivity.reshape(-1, 3))
        check(np.array_equal(theirs, corners(positions, triangles)),
              f"{name}.stl: every triangle's corners equal the PLY's, in order, bit for bit")
    # Facet normals: the format's own field, which VTK's reader does not return.
    with open(path, "rb") as f:
        content = f.read()
    count = int.from_bytes(content[80:84], "little")
    check(len(content) == 84 + 50 * count and not content.startswith(b"solid"),
          f"{name}.stl: {len(content)} bytes = 84 + 50 x {count} triangles, header not 'solid'")
    records = np.frombuffer(content, dtype=np.dtype([("n", "<f4", 3), ("v", "<f4", 9), ("a", "<u2")]),
                            count=count, offset=84)
    v = records["v"].astype(np.float64).reshape(-1, 3, 3)
    expected = np.cross(v[:, 1] - v[:, 0], v[:, 2] - v[:, 0])
    length = np.linalg.norm(expected, axis=1, keepdims=True)
    good = length[:, 0] > 1e-12
    error = np.max(np.abs(records["n"][good] - expected[good] / length[good])) if good.any() else 0.0
    check(error < 1e-5, f"{name}.stl: facet normals are the windings' unit normals (max error {error:.2g})")


def check_vtp(path, positions, normals, triangles, name):
    reader = vtk.vtkXMLPolyDataReader()
    reader.SetFileName(path)
    reader.Update()
    polydata = reader.GetOutput()
    points, connectivity, sizes = polydata_arrays(polydata)
    check(np.array_equal(points, positions), f"{name}.vtp: {len(points)} points equal the PLY's {len(positions)}")
    check(len(sizes) == len(triangles) and np.array_equal(connectivity, triangles.reshape(-1)),
          f"{name}.vtp: {len(sizes)} polygons with the PLY's connectivity")
    vtk_normals = polydata.GetPointData().GetNormals()
    if normals is None:
        check(vtk_normals is None, f"{name}.vtp: no normals, as in the PLY")
    else:
        check(vtk_normals is not None and np.array_equal(vtk_to_numpy(vtk_normals), normals),
              f"{name}.vtp: point normals equal the PLY's")


def gltf_validator():
    """The validator's module path, or None."""
    try:
        root = subprocess.run(["npm", "root", "-g"], capture_output=True, text=True, timeout=60).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return None
    module = os.path.join(root, "gltf-validator")
    return module if root and os.path.isdir(module) and shutil.which("node") else None


VALIDATE_JS = """
const validator = require(process.argv[2]);
const fs = require('fs');
const path = require('path');
const file = process.argv[3];
validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {
  uri: path.basename(file),
  externalResourceFunction: (uri) => new Promise((resolve, reject) => {
    try { resolve(new Uint8Array(fs.readFileSync(path.join(path.dirname(file), decodeURIComponent(uri))))); }
    catch (e) { reject(e.toString()); }
  }),
}).then((report) => console.log(JSON.stringify(report.issues)))
  .catch((error) => { console.error(error); process.exit(1); });
"""


def check_gltf(path, positions, triangles, name, validator):
    extension = os.path.splitext(path)[1]
    if validator:
        script = os.path.join(TMP, "validate.js")
        with open(script, "w") as f:
            f.write(VALIDATE_JS)
        result = subprocess.run(["node", script, validator, path], capture_output=True, text=True, timeout=300)
        issues = json.loads(result.stdout) if result.returncode == 0 else {"numErrors": -1}
        messages = [m["code"] + ": " + m["message"] for m in issues.get("messages", []) if m.get("severity") == 0]
        check(issues.get("numErrors") == 0,
              f"{name}{extension}: the Khronos glTF validator reports no errors ({issues.get('numErrors')} "
              f"errors, {issues.get('numWarnings')} warnings) {messages[:3]} {result.stderr.strip()[:200]}")
    reader = vtk.vtkGLTFReader()
    reader.SetFileName(path)
    reader.Update()
    blocks = reader.GetOutput()
    iterator = blocks.NewIterator()
    iterator.InitTraversal()
    meshes = []
    while not iterator.IsDoneWithTraversal():
        meshes.append(iterator.GetCurrentDataObject())
        iterator.GoToNextItem()
    check(len(meshes) == 1, f"{name}{extension}: vtkGLTFReader finds {len(meshes)} mesh")
    if len(meshes) == 1:
        points, connectivity, sizes = polydata_arrays(meshes[0])
        check(np.array_equal(points, positions), f"{name}{extension}: vtkGLTFReader's points equal the PLY's")
        check(len(sizes) == len(triangles) and np.array_equal(connectivity, triangles.reshape(-1)),
              f"{name}{extension}: vtkGLTFReader reads the PLY's {len(triangles)} triangles")


def compare_writers(volume, iso, name, validator):
    stems = {}
    for extension in FORMATS:
        stems[extension] = os.path.join(TMP, f"{name}.{extension}")
        isoscope("extract", volume, "--iso", repr(float(iso)), "--method", "cpu", "-o", stems[extension])
    positions, normals, triangles = read_ply_with_normals(stems["ply"])
    check(len(triangles) > 0, f"{name}: the PLY has {len(triangles)} triangles")
    check_stl(stems["stl"], positions, triangles, name)
    check_vtp(stems["vtp"], positions, normals, triangles, name)
    check(os.path.exists(os.path.join(TMP, f"{name}.bin")), f"{name}.gltf: its buffer {name}.bin is beside it")
    check_gltf(stems["gltf"], positions, triangles, name, validator)
    check_gltf(stems["glb"], positions, triangles, name, validator)


def oblique_nifti():
    """A blob on an oblique, flipped grid, written by nibabel (None when nibabel is missing)."""
    try:
        import nibabel as nib
    except ImportError:
        return None
    x, y, z = np.meshgrid(np.arange(24), np.arange(20), np.arange(18), indexing="ij")
    field = np.sqrt(((x - 11.3) / 8) ** 2 + ((y - 9.1) / 7) ** 2 + ((z - 8.7) / 6) ** 2).astype(np.float32)
    affine = np.array([[0.0, -1.2, 0.3, 40.0], [0.9, 0.0, 0.0, -12.5], [0.0, 0.2, 1.5, 3.25], [0, 0, 0, 1]])
    path = os.path.join(TMP, "oblique.nii.gz")
    nib.save(nib.Nifti1Image(field, affine), path)
    return path


def main():
    global TMP
    TMP = scratch_folder("mesh_writers_vs_vtk")
    validator = gltf_validator()
    if not validator:
        print("WARN the glTF validator is absent (npm install -g gltf-validator): glTF files checked with VTK only")

    compare_writers("torus:40", 0.04, "torus", validator)
    nifti = oblique_nifti()
    if nifti:
        compare_writers(nifti, 0.8, "oblique", validator)
    else:
        print("WARN skipped the oblique NIfTI mesh: nibabel is missing")
    engine = os.path.join(DATASETS, "engine_256x256x128_uint8.nhdr")
    if DATASETS and os.path.exists(engine):
        compare_writers(engine, 150.5, "engine", validator)
    else:
        print(f"WARN skipped the engine CT: not in ISOSCOPE_DATASETS='{DATASETS}'")

    return finish(TMP, "meshes")


if __name__ == "__main__":
    sys.exit(main())
