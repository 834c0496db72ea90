"""The lower-level API: Context, Volume, extract, render, bench; and wrong
inputs raising Python exceptions that carry the engine's message."""
import subprocess
import sys
import threading

import numpy as np
import pytest

import isoscope
from conftest import DATASETS, sphere_field


def test_context_reports_its_device(context):
    info = context.info
    assert info["name"] == context.device_name and info["subgroup_size"] == context.subgroup_size
    assert info["budget_bytes"] > 0 and info["max_image_dimension_3d"] >= 256
    listed = context.devices
    assert any(d["index"] == info["index"] and d["name"] == info["name"] and d["usable"] for d in listed)


def test_context_chooses_a_device_by_index_and_by_name(context):
    # In a process of its own: one Context per process.
    script = f"""
import isoscope
by_index = isoscope.Context(device={context.info["index"]})
name = by_index.device_name
del by_index
by_name = isoscope.Context(device={context.device_name[:6].lower()!r})
assert by_name.device_name == name == {context.device_name!r}, (name, by_name.device_name)
del by_name
try:
    isoscope.Context(device="no-such-gpu")
except RuntimeError as error:
    assert "no-such-gpu" in str(error), error
else:
    raise AssertionError("no error for device no-such-gpu")
"""
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    with pytest.raises(TypeError):
        isoscope.Context(device=1.5)


def test_one_context_per_process(context):
    with pytest.raises(ValueError, match="one Context per process"):
        isoscope.Context()
    assert isoscope.default_context() is context


def test_from_numpy_keeps_the_array_axes_spacing_and_origin(context):
    array = sphere_field((10, 12, 14))
    for layout in (array, np.asfortranarray(array)):
        volume = isoscope.Volume.from_numpy(layout, spacing=(1, 2, 3), origin=(-1, 0, 5), context=context)
        assert volume.shape == (10, 12, 14) and volume.spacing == (1, 2, 3) and volume.origin == (-1, 0, 5)
        assert volume.value_range == pytest.approx((float(array.min()), float(array.max())))
    assert isoscope.Volume.from_numpy(array.astype(np.int8), context=context).dtype == np.int16
    assert isoscope.Volume.from_numpy(array.astype(np.float64), context=context).dtype == np.float32


def test_extract_places_vertices_in_world_units_with_normals_toward_lower_values(context):
    array = sphere_field((20, 22, 24), centre=(9.5, 10.5, 11.5), stretch=(1, 1, 1))
    spacing, origin = (0.5, 1.0, 2.0), (10.0, -4.0, 1.0)
    volume = isoscope.Volume.from_numpy(array, spacing=spacing, origin=origin, context=context)
    for method in ("block", "scan", "histopyramid", "dual"):
        verts, faces, normals = isoscope.extract(volume, 6.0, method=method)
        assert faces.shape[1] == (4 if method == "dual" else 3)  # dual: quads
        index = (verts - origin) / spacing
        radius = np.linalg.norm(index - (9.5, 10.5, 11.5), axis=1)
        assert np.abs(radius - 6.0).max() < 0.05, "vertices are not on the sphere of radius 6 (index units)"
        # The field grows outward: lower values are inside, so the normals point inward.
        outward = (index - (9.5, 10.5, 11.5)) * spacing
        assert np.mean(np.sum(normals * outward, axis=1) < 0) > 0.99
        assert np.allclose(np.linalg.norm(normals, axis=1), 1.0, atol=1e-4)
        # Counter-clockwise around the normals (a quad's first three corners too).
        v = verts.astype(np.float64)
        geometric = np.cross(v[faces[:, 1]] - v[faces[:, 0]], v[faces[:, 2]] - v[faces[:, 0]])
        assert np.mean(np.sum(geometric * normals[faces[:, 0]], axis=1) > 0) > 0.99
        assert isoscope.last_pass_times(volume, method) is not None


def test_load_reads_files_and_synthetic_fields(context):
    sphere = isoscope.Volume.load("sphere:24", context=context)
    assert sphere.shape == (24, 24, 24)
    verts, faces, _ = isoscope.extract(sphere)
    assert len(faces) > 500 and faces.max() < len(verts)
    header = DATASETS / "anatomical_33x41x25_int16.nhdr"
    if header.exists():
        volume = isoscope.Volume.load(str(header), context=context)
        assert volume.shape == (33, 41, 25) and volume.spacing == (2.0, 2.0, 2.0)
    with pytest.raises(OSError, match="missing.nrrd"):
        isoscope.Volume.load("/nonexistent/missing.nrrd", context=context)


@pytest.mark.parametrize("mode", ["mesh", "raycast", "dvr"])
def test_render_returns_an_rgba_image_of_the_volume(context, mode):
    volume = isoscope.Volume.from_numpy(sphere_field((24, 24, 24), (11.5, 11.5, 11.5), (1, 1, 1)), context=context)
    image = isoscope.render(volume, 8.0, mode=mode, size=(48, 32))
    assert image.shape == (32, 48, 4) and image.dtype == np.uint8
    background = image[0, 0].astype(int)
    differs = np.any(np.abs(image.astype(int) - background) > 8, axis=2)
    assert 0.05 < differs.mean() < 0.95, f"{differs.mean():.0%} of the pixels show the volume"
    side = isoscope.render(volume, 8.0, mode=mode, size=(48, 32), camera=(90, 0))
    assert side.shape == image.shape


def test_render_draws_dual_quads_where_block_triangles_are(context):
    volume = isoscope.Volume.from_numpy(sphere_field((24, 24, 24), (11.5, 11.5, 11.5), (1, 1, 1)), context=context)
    quads = isoscope.render(volume, 8.0, mode="mesh", size=(64, 48), method="dual")
    triangles = isoscope.render(volume, 8.0, mode="mesh", size=(64, 48), method="block")
    covered = [np.any(np.abs(i.astype(int) - i[0, 0].astype(int)) > 8, axis=2) for i in (quads, triangles)]
    assert covered[1].mean() > 0.05
    assert np.mean(covered[0] != covered[1]) < 0.02 * covered[1].mean(), "dual's silhouette is not block's"


def test_bench_returns_the_stats(context):
    volume = isoscope.Volume.from_numpy(sphere_field(), context=context)
    stats = isoscope.bench(volume, 6.3, method="scan", repeat=2, warmup=1)
    assert stats["method"] == "scan" and stats["device"] == context.device_name and stats["repeat"] == 2
    assert stats["faces"] > 500 and stats["vertices"] > 250 and stats["wall_ms"] > 0
    assert stats["gpu_ms"] == pytest.approx(sum(stats["gpu_ms_per_pass"].values()), rel=1e-6)
    details = {}
    isoscope.marching_cubes(sphere_field(), 6.3, context=context, stats=details)
    assert details["total_ms"] >= details["upload_ms"] + details["extract_ms"] and details["faces"] == stats["faces"]


def test_threads_share_a_context(context):
    volume = isoscope.Volume.from_numpy(sphere_field(), context=context)
    counts = []
    threads = [threading.Thread(target=lambda: counts.append(len(isoscope.extract(volume, 6.3)[1]))) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(counts) == 3 and len(set(counts)) == 1


BAD_INPUTS = [
    ("a 2D array", lambda: np.zeros((4, 4), np.float32), None, ValueError, "3D"),
    ("an empty array", lambda: np.zeros((0, 4, 4), np.float32), None, ValueError, "2x2x2"),
    ("an object array", lambda: np.empty((3, 3, 3), object), None, TypeError, "dtype object"),
    ("a list", lambda: [[[0.0]]], None, ValueError, "3D numpy array"),
    ("a NaN level", lambda: sphere_field(), float("nan"), ValueError, "level is NaN"),
    ("a level above the data", lambda: sphere_field(), 1e6, ValueError, "within volume data range"),
    ("a level below the data", lambda: sphere_field(), -1.0, ValueError, "within volume data range"),
]


@pytest.mark.parametrize("name,make,level,error,message", BAD_INPUTS, ids=[b[0] for b in BAD_INPUTS])
def test_wrong_inputs_raise_python_exceptions(context, name, make, level, error, message):
    with pytest.raises(error, match=message):
        isoscope.marching_cubes(make(), level, context=context)


def test_unsupported_arguments_are_named(context):
    volume = sphere_field()
    with pytest.raises(NotImplementedError, match="mask"):
        isoscope.marching_cubes(volume, 6.3, mask=np.ones(volume.shape, bool), context=context)
    with pytest.raises(ValueError, match="lewiner"):
        isoscope.marching_cubes(volume, 6.3, method="lewiner", context=context)
    with pytest.raises(ValueError, match="gradient_direction"):
        isoscope.marching_cubes(volume, 6.3, gradient_direction="up", context=context)
    with pytest.raises(ValueError, match="step_size"):
        isoscope.marching_cubes(volume, 6.3, step_size=0, context=context)
    with pytest.raises(ValueError, match="spacing"):
        isoscope.marching_cubes(volume, 6.3, spacing=(1, 0, 1), context=context)
    with pytest.raises(RuntimeError, match="No surface found"):
        isoscope.marching_cubes(np.zeros((4, 4, 4), np.float32), 0.0, context=context)


def test_a_volume_larger_than_the_device_holds_is_refused(context):
    side = context.info["max_image_dimension_3d"] + 1
    with pytest.raises(ValueError, match="exceeds the largest 3D image"):
        isoscope.Volume.from_numpy(np.zeros((2, 2, side), np.uint8), context=context)
