"""Shared by the Python module's tests: one validated Context per session
whose validation messages fail the test that caused them, the real volumes
of ../shared/datasets, and the comparison with scikit-image."""
import os
from pathlib import Path

import numpy as np
import pytest

import isoscope

DATASETS = Path(os.environ.get("ISOSCOPE_DATASETS", Path(__file__).resolve().parents[3] / "shared" / "datasets"))


@pytest.fixture(scope="session")
def context():
    ctx = isoscope.Context(validation=True)
    expected = os.environ.get("ISOSCOPE_EXPECT_SUBGROUP_SIZE")
    if expected:
        assert ctx.subgroup_size == int(expected), f"{ctx.device_name} runs subgroups of {ctx.subgroup_size}"
    return ctx


@pytest.fixture(autouse=True)
def no_validation_messages(request):
    if "context" not in request.fixturenames:
        yield
        return
    ctx = request.getfixturevalue("context")
    ctx.clear_validation_messages()
    yield
    assert ctx.validation_messages == [], "validation reported:\n" + "\n".join(ctx.validation_messages)


def read_dataset(name):
    """A ../shared/datasets volume as a C-ordered [z, y, x] array, or a skip."""
    header = DATASETS / f"{name}.nhdr"
    if not header.exists():
        pytest.skip(f"{header} not found (the real volumes of ../shared/datasets)")
    dims = [int(n) for n in name.split("_")[1].split("x")]
    dtype = {"uint8": "<u1", "int16": "<i2", "uint16": "<u2"}[name.split("_")[2]]
    raw = np.fromfile(DATASETS / f"{name}.raw", dtype=dtype)
    return raw.reshape(dims[2], dims[1], dims[0])


def sphere_field(shape=(24, 28, 32), centre=(11.3, 13.1, 15.7), stretch=(1.0, 1.3, 0.8)):
    """A smooth ellipsoidal distance field, off the grid's symmetry."""
    g = np.indices(shape, dtype=np.float64)
    return np.sqrt(sum(s * (g[a] - c) ** 2 for a, (c, s) in enumerate(zip(centre, stretch)))).astype(np.float32)


def gyroid_field(n=32):
    """Many surface sheets through every cell type, also saddles."""
    x, y, z = np.indices((n, n + 3, n + 6), dtype=np.float64) * (2 * np.pi / 15.0)
    return (np.sin(x) * np.cos(y) + np.sin(y) * np.cos(z) + np.sin(z) * np.cos(x)).astype(np.float32)


def winding_normals(verts, faces):
    """Per vertex, the area-weighted sum of its triangles' normals by winding."""
    v = verts.astype(np.float64)
    cross = np.cross(v[faces[:, 1]] - v[faces[:, 0]], v[faces[:, 2]] - v[faces[:, 0]])
    out = np.zeros_like(v)
    for k in range(3):
        np.add.at(out, faces[:, k], cross)
    return out


def compare_with_skimage(ours, theirs, spacing=(1.0, 1.0, 1.0), values_share=0.99):
    """Asserts the issue's criteria and returns the numbers: same triangle
    count, a one-to-one vertex match within 1e-5 voxel (or 2 float32 steps of
    the coordinate, which both store), normals and winding the same way,
    equal `values`; normals agree (dot > 0.9) at 99% of vertices, the issue's
    criterion, on smooth, binary and noisy data alike (isoscope.marching_cubes
    computes them with skimage's estimator)."""
    from scipy.spatial import cKDTree

    verts, faces, normals, values = ours
    sk_verts, sk_faces, sk_normals, sk_values = theirs
    assert len(faces) == len(sk_faces), f"{len(faces)} triangles, skimage {len(sk_faces)}"
    assert len(verts) == len(sk_verts), f"{len(verts)} vertices, skimage {len(sk_verts)}"
    voxel = np.asarray(spacing, dtype=np.float64)
    ours_voxel = verts / voxel
    theirs_voxel = sk_verts / voxel
    distance, match = cKDTree(ours_voxel).query(theirs_voxel)
    tolerance = np.maximum(1e-5, 2 * np.spacing(np.abs(theirs_voxel).max(axis=1).astype(np.float32)))
    worst = np.argmax(distance - tolerance)
    assert np.all(distance <= tolerance), f"vertex {theirs_voxel[worst]} is {distance[worst]} voxel from ours"
    # One to one, where vertices at one position (degenerate triangles'
    # corners) count as a group: each group of ours takes as many of skimage's.
    tree = cKDTree(ours_voxel)
    group = np.array([min(ball) for ball in tree.query_ball_point(ours_voxel, 1e-5)])
    ours_sizes = np.bincount(group, minlength=len(verts))
    theirs_sizes = np.bincount(group[match], minlength=len(verts))
    assert np.array_equal(ours_sizes, theirs_sizes), "the vertices at some position differ in number"
    normal_dot = np.sum(normals[match] * sk_normals, axis=1)
    agree = np.mean(normal_dot > 0.9)
    assert agree >= 0.99, f"normals agree (dot > 0.9) at {agree:.2%}"
    # Around vertices with a triangle of some area (degenerate ones have no way).
    ours_wind, theirs_wind = winding_normals(verts, faces)[match], winding_normals(sk_verts, sk_faces)
    area = (np.linalg.norm(ours_wind, axis=1) > 1e-9) & (np.linalg.norm(theirs_wind, axis=1) > 1e-9)
    wind = np.sum(ours_wind[area] * theirs_wind[area], axis=1)
    assert np.mean(wind > 0) >= 0.99, f"faces wound the same way around {np.mean(wind > 0):.2%} of vertices"
    # Within a group the nearest-neighbour match is arbitrary (our vertex order
    # follows the GPU's atomics): values compare as the group's sorted multiset.
    ours_order, theirs_order = np.lexsort((values, group)), np.lexsort((sk_values, group[match]))
    same_values = np.isclose(values[ours_order], sk_values[theirs_order], rtol=1e-6, atol=1e-6)
    assert np.mean(same_values) >= values_share, f"values equal at {np.mean(same_values):.2%}"
    return {"vertices": len(verts), "faces": len(faces), "max_voxel_distance": float(distance.max()),
            "normals_dot_gt_0.9": float(np.mean(normal_dot > 0.9)),
            "normals_dot_gt_0.9999": float(np.mean(normal_dot > 0.9999)), "winding_agrees": float(np.mean(wind > 0)),
            "values_equal": float(np.mean(same_values))}
