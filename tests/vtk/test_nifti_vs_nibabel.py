#!/usr/bin/python3
"""NIfTI through isoscope against nibabel, the reference Python reader.

nibabel writes the files (every integer and float type, scaled, oblique and
flipped affines, .nii, .nii.gz, .hdr/.img pairs, NIfTI-1 and NIfTI-2, sform
and qform) and reads them back; isoscope must give, through its CLI:
  1. the same samples: `isoscope convert` writes them as NRRD, compared with
     nibabel's get_fdata() rounded to float32 (isoscope's type for converted
     and scaled data; the types the engine has are compared as they are);
  2. the same dims, spacing (nibabel's zooms, from pixdim) and index-to-world
     matrix (nibabel's affine), from `isoscope volinfo --json`;
  3. meshes in the same world: `isoscope extract --method cpu` against
     skimage's marching cubes on nibabel's array, its vertices taken through
     nibabel's affine; both mapped back to grid indices, the two vertex sets
     pair up one to one within 1e-4 voxel (lorensen's vertices are one per
     crossed grid edge, as ours are; see test_cpu_reference_vs_skimage.py).
     Also through --index-space, where the vertices are the indices.
Exit 77 (skipped) when the CLI has not been built or nibabel is missing.
"""
import os
import struct
import sys

import numpy as np

from reference_common import BIN, check, import_or_skip, isoscope, read_nrrd, read_ply, run_checks, volinfo

nib = import_or_skip("nibabel")
cKDTree = import_or_skip("scipy.spatial", "cKDTree")
marching_cubes = import_or_skip("skimage.measure", "marching_cubes")

TMP = ""
TOLERANCE = 1e-4  # voxels

# An oblique map with a flip: rotation of 30 degrees about z and 20 about x,
# steps 0.8, 1.1, 2.5, the first axis reversed, and a translation.
def oblique_affine():
    a, b = np.radians(30), np.radians(20)
    rz = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])
    rx = np.array([[1, 0, 0], [0, np.cos(b), -np.sin(b)], [0, np.sin(b), np.cos(b)]])
    affine = np.eye(4)
    affine[:3, :3] = rz @ rx @ np.diag([-0.8, 1.1, 2.5])
    affine[:3, 3] = [12.5, -30.25, 7.0]
    return affine


def our_samples(path, name):
    """isoscope's samples as array[z, y, x] float32, through `convert` to NRRD (and that NRRD's path)."""
    out = os.path.join(TMP, name + ".nrrd")
    isoscope("convert", path, "-o", out)
    return read_nrrd(out)[0], out


def values_for(dtype, shape, rng):
    """Samples that use the type: negatives where signed, large magnitudes, fractions for floats."""
    info = np.iinfo(dtype) if np.issubdtype(dtype, np.integer) else None
    if info is not None:
        # Within 2^24 for the wide types, so float32 holds them exactly whichever way they are rounded.
        low, high = max(int(info.min), -(1 << 24)), min(int(info.max), 1 << 24)
        return rng.integers(low, high, size=shape, endpoint=True).astype(dtype)
    return (rng.standard_normal(shape) * 1000).astype(dtype)


def compare_file(path, image, name, kept_type=None):
    """Samples, dims, spacing and matrix of path, as isoscope reads it, against nibabel's image of it."""
    reloaded = nib.load(path)  # what nibabel reads back from the file, not the image in memory
    expected = np.asarray(reloaded.get_fdata(dtype=np.float64)).astype(np.float32).transpose(2, 1, 0)
    ours, converted = our_samples(path, name)
    check(ours.shape == expected.shape and np.array_equal(ours, expected),
          f"{name}: the same {expected.size} samples as nibabel's get_fdata() as float32"
          + ("" if ours.shape != expected.shape else f" (max difference {np.max(np.abs(ours - expected)):.3g})"))
    info = volinfo(path)
    check(info["dims"] == list(reloaded.shape[:3]), f"{name}: dims {info['dims']} == {list(reloaded.shape[:3])}")
    zooms = [float(z) for z in reloaded.header.get_zooms()[:3]]
    check(np.array_equal(info["spacing"], zooms), f"{name}: spacing {info['spacing']} == zooms {zooms}")
    matrix = np.array(info["index_to_world"])
    check(np.allclose(matrix, reloaded.affine, rtol=0, atol=1e-6),
          f"{name}: index_to_world equals nibabel's affine (max difference "
          f"{np.max(np.abs(matrix - reloaded.affine)):.3g})")
    again = np.array(volinfo(converted)["index_to_world"])
    check(np.array_equal(again, matrix), f"{name}: converted to NRRD, the matrix is kept (space directions)")
    if kept_type:
        check(info["type"] == kept_type, f"{name}: type {info['type']} == {kept_type}")
    return info


def check_types():
    rng = np.random.default_rng(22)
    shape = (7, 6, 5)  # x, y, z
    kept = {"uint8": "uint8", "uint16": "uint16", "int16": "int16", "float32": "float32", "int8": "int16",
            "int32": "float32", "uint32": "float32", "int64": "float32", "uint64": "float32", "float64": "float32"}
    for dtype, our_type in kept.items():
        data = values_for(np.dtype(dtype), shape, rng)
        header = nib.Nifti1Header()
        header.set_data_dtype(dtype)  # int64 only when asked for explicitly
        image = nib.Nifti1Image(data, oblique_affine(), header)
        path = os.path.join(TMP, f"{dtype}.nii")
        nib.save(image, path)
        info = compare_file(path, image, f"{dtype}.nii", our_type)
        converted = our_type != dtype and not (dtype == "int8")
        check(not converted or any("float32" in note for note in info["notes"]),
              f"{dtype}.nii: a note says the samples became float32: {info['notes']}")


def set_scaling(path, slope, inter):
    """Writes scl_slope and scl_inter into a NIfTI-1 file's header (bytes 112 and 116, float32, the file's
    byte order). nibabel's own writer picks its own scaling for the data, so it is set here by hand."""
    with open(path, "r+b") as f:
        endian = "<" if struct.unpack("<i", f.read(4))[0] == 348 else ">"
        f.seek(112)
        f.write(struct.pack(endian + "ff", slope, inter))


def check_scaling():
    rng = np.random.default_rng(7)
    shape = (6, 5, 4)
    for dtype, slope, inter in [("int16", 0.5, -3.25), ("uint8", 2.0, 0.0), ("float32", 3.0, 100.0),
                                ("uint16", 1.0, -1024.0), ("int32", 0.001, 5.0), ("int8", -1.5, 0.25)]:
        data = values_for(np.dtype(dtype), shape, rng)
        header = nib.Nifti1Header()
        header.set_data_dtype(dtype)
        path = os.path.join(TMP, f"scaled_{dtype}.nii")
        nib.save(nib.Nifti1Image(data, oblique_affine(), header), path)
        set_scaling(path, slope, inter)
        proxy = nib.load(path).dataobj  # nibabel moves the header's scaling here on load
        stored = (float(proxy.slope), float(proxy.inter))
        written = (float(np.float32(slope)), float(np.float32(inter)))  # the header holds float32
        check(stored == written, f"scaled_{dtype}.nii: the file says slope/intercept {stored}")
        info = compare_file(path, None, f"scaled_{dtype}.nii", "float32")
        check(any("scl_slope" in note for note in info["notes"]), f"scaled_{dtype}.nii: a note names scl_slope")

    # What nibabel writes itself for float data stored as int16: a slope and intercept of its choosing.
    data = (rng.standard_normal(shape) * 3.7 + 1.2).astype(np.float64)
    header = nib.Nifti1Header()
    header.set_data_dtype(np.int16)
    path = os.path.join(TMP, "scaled_by_nibabel.nii.gz")
    nib.save(nib.Nifti1Image(data, oblique_affine(), header), path)
    check(float(nib.load(path).dataobj.slope) != 1.0, "nibabel scaled scaled_by_nibabel.nii.gz")
    compare_file(path, None, "scaled_by_nibabel.nii.gz", "float32")

    # A slope of 0 means no scaling (nibabel and the NIfTI standard agree).
    data = values_for(np.dtype("int16"), shape, rng)
    path = os.path.join(TMP, "slope_zero.nii")
    nib.save(nib.Nifti1Image(data, oblique_affine()), path)
    set_scaling(path, 0.0, 50.0)
    compare_file(path, None, "slope_zero.nii", "int16")


def check_containers():
    rng = np.random.default_rng(3)
    data = values_for(np.dtype("int16"), (9, 8, 7), rng)
    affine = oblique_affine()
    for name, image in [("one.nii.gz", nib.Nifti1Image(data, affine)),
                        ("pair.hdr", nib.Nifti1Pair(data, affine)),
                        ("pair_gz.hdr.gz", nib.Nifti1Pair(data, affine)),
                        ("two.nii", nib.Nifti2Image(data, affine)),
                        ("two.nii.gz", nib.Nifti2Image(data.astype(np.float32), affine))]:
        path = os.path.join(TMP, name)
        nib.save(image, path)
        compare_file(path, image, name)
    # A pair is read from either of its files.
    compare_file(os.path.join(TMP, "pair.img"), None, "pair.img")

    # qform only (sform_code 0): nibabel and libnifti each turn the quaternion back into a matrix.
    image = nib.Nifti1Image(data, affine)
    image.set_sform(None, code=0)
    image.set_qform(affine, code=1)
    path = os.path.join(TMP, "qform.nii")
    nib.save(image, path)
    compare_file(path, image, "qform.nii")

    # Axis-aligned: spacing and origin say it all, no matrix is kept.
    aligned = np.diag([0.5, 0.75, 1.5, 1.0])
    aligned[:3, 3] = [-10, 20, 3.5]
    path = os.path.join(TMP, "aligned.nii")
    nib.save(nib.Nifti1Image(data, aligned), path)
    info = compare_file(path, None, "aligned.nii")
    check(info["axis_aligned"] and info["origin"] == [-10, 20, 3.5],
          f"aligned.nii: axis-aligned with origin {info['origin']}")

    # Neither sform nor qform: NIfTI's method 1, pixdim alone (nibabel's ANALYZE-style fallback differs).
    image = nib.Nifti1Image(data, np.diag([2.0, 3.0, 4.0, 1.0]))
    image.set_sform(None, code=0)
    image.set_qform(None, code=0)
    path = os.path.join(TMP, "no_orientation.nii")
    nib.save(image, path)
    info = volinfo(path)
    check(np.allclose(info["index_to_world"], np.diag([2.0, 3.0, 4.0, 1.0])),
          f"no_orientation.nii: index_to_world is diag(pixdim): {info['index_to_world']}")


def mesh_in_index_space(vertices_world, affine):
    inverse = np.linalg.inv(affine)
    return vertices_world @ inverse[:3, :3].T + inverse[:3, 3]


def compare_mesh(path, iso, name):
    """Our extracted vertices against skimage's on nibabel's array through nibabel's affine."""
    image = nib.load(path)
    data = np.asarray(image.get_fdata(dtype=np.float64)).astype(np.float32)  # [x, y, z]
    theirs_index, _, _, _ = marching_cubes(data, level=iso, method="lorensen")
    theirs_world = theirs_index @ image.affine[:3, :3].T + image.affine[:3, 3]
    agreement = {}
    for space in ("world", "index"):
        mesh = os.path.join(TMP, f"{name}.{space}.ply")
        extra = ["--index-space"] if space == "index" else []
        isoscope("extract", path, "--iso", repr(float(iso)), "--method", "cpu", "-o", mesh, *extra)
        ours, triangles = read_ply(mesh)
        ours = ours.astype(np.float64)
        ours_index = mesh_in_index_space(ours, image.affine) if space == "world" else ours
        theirs = mesh_in_index_space(theirs_world, image.affine)
        paired = len(ours_index) == len(theirs)
        distance = np.inf
        if paired and len(ours_index):
            distance, partner = cKDTree(theirs).query(ours_index)
            paired = len(set(partner.tolist())) == len(partner)
            distance = float(np.max(distance))
        check(paired and distance <= TOLERANCE,
              f"{name} ({space}): {len(ours_index)} vertices pair one to one with skimage's {len(theirs)} "
              f"through nibabel's affine, max distance {distance:.2g} voxel <= {TOLERANCE}")
        # Faces keep facing the same side of the surface through the map, flips included: the
        # winding's normal against the field's gradient, averaged over the mesh, has the same sign
        # in world space as in index space (where nothing was mapped).
        a, b, c = (ours[triangles[:, k]] for k in range(3))
        normals = np.cross(b - a, c - a)
        centroids_index = ((a + b + c) / 3) if space == "index" else mesh_in_index_space((a + b + c) / 3, image.affine)
        gradient = world_gradient(data, centroids_index, image.affine if space == "world" else np.eye(4))
        agreement[space] = float(np.mean(np.sign(np.einsum("ij,ij->i", normals, gradient))))
    check(agreement["world"] * agreement["index"] > 0 and abs(agreement["world"]) > 0.5,
          f"{name}: triangles face the same side of the surface in world and index space "
          f"(winding against gradient {agreement['world']:+.2f}, {agreement['index']:+.2f})")


def world_gradient(data, index_points, affine):
    """The field's gradient in world coordinates at the nearest samples of index_points."""
    gx, gy, gz = np.gradient(data)
    nearest = np.clip(np.rint(index_points).astype(int), 0, np.array(data.shape) - 1)
    g_index = np.stack([g[nearest[:, 0], nearest[:, 1], nearest[:, 2]] for g in (gx, gy, gz)], axis=1)
    # d/dworld = inverse(A)^T d/dindex
    return g_index @ np.linalg.inv(affine[:3, :3])


def check_meshes():
    # A smooth blob on an oblique, flipped grid.
    x, y, z = np.meshgrid(np.arange(20), np.arange(18), np.arange(16), indexing="ij")
    field = np.sqrt(((x - 9.3) / 7) ** 2 + ((y - 8.1) / 6) ** 2 + ((z - 7.7) / 5) ** 2).astype(np.float32)
    path = os.path.join(TMP, "blob.nii.gz")
    nib.save(nib.Nifti1Image(field, oblique_affine()), path)
    compare_mesh(path, 0.8, "blob.nii.gz")

    # Real data shipped with nibabel: a big-endian anatomical MRI with its x axis flipped.
    anatomical = os.path.join(os.path.dirname(nib.__file__), "tests", "data", "anatomical.nii")
    if os.path.exists(anatomical):
        compare_file(anatomical, None, "anatomical.nii")
        compare_mesh(anatomical, 5000.5, "anatomical.nii")
    else:
        print(f"WARN skipped nibabel's anatomical.nii: not found at {anatomical}")


def check_refusals():
    four_d = os.path.join(TMP, "series.nii")
    nib.save(nib.Nifti1Image(np.zeros((4, 3, 2, 5), np.int16), np.eye(4)), four_d)
    result = __import__("subprocess").run([BIN, "volinfo", four_d], capture_output=True, text=True)
    check(result.returncode != 0 and "series.nii" in result.stderr and "4D" in result.stderr,
          f"a 4D file is refused, naming the file: {result.stderr.strip()}")
    rgb = os.path.join(TMP, "rgb.nii")
    data = np.zeros((4, 3, 2), dtype=[("R", "u1"), ("G", "u1"), ("B", "u1")])
    nib.save(nib.Nifti1Image(data, np.eye(4)), rgb)
    result = __import__("subprocess").run([BIN, "volinfo", rgb], capture_output=True, text=True)
    check(result.returncode != 0 and "rgb.nii" in result.stderr and "rgb24" in result.stderr.lower(),
          f"an RGB file is refused with its type named: {result.stderr.strip()}")


if __name__ == "__main__":
    sys.exit(run_checks(globals(), "nifti_vs_nibabel", check_types, check_scaling, check_containers, check_meshes, check_refusals))
