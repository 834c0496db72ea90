"""isoscope.marching_cubes equals skimage.measure.marching_cubes(method='lorensen')
(issue 26): triangle count, vertex set, normals, winding and values, for every
GPU method and input layout and dtype, on synthetic fields and real volumes."""
import numpy as np
import pytest

import isoscope
from conftest import compare_with_skimage, gyroid_field, read_dataset, sphere_field

skimage_measure = pytest.importorskip("skimage.measure")
METHODS = ["block", "scan", "histopyramid"]


def check(context, volume, level=None, method="block", values_share=0.99, **options):
    ours = isoscope.marching_cubes(volume, level, method=method, context=context, **options)
    theirs = skimage_measure.marching_cubes(volume, level, method="lorensen", **options)
    assert ours[0].dtype == theirs[0].dtype and ours[1].dtype == theirs[1].dtype
    assert ours[2].dtype == theirs[2].dtype and ours[3].dtype == theirs[3].dtype
    return compare_with_skimage(ours, theirs, options.get("spacing", (1.0, 1.0, 1.0)), values_share)


LAYOUTS = {
    "C order": lambda a: np.ascontiguousarray(a),
    "Fortran order": lambda a: np.asfortranarray(a),
    "strided view": lambda a: a[:, ::2, :],
    "axes swapped": lambda a: a.transpose(1, 0, 2),
    "reversed axis": lambda a: a[::-1],
}


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_layout_matches_skimage(context, method, layout):
    volume = LAYOUTS[layout](sphere_field())
    numbers = check(context, volume, 6.3, method, spacing=(1.0, 2.0, 0.5))
    assert numbers["faces"] > 500


DTYPES = ["bool", "uint8", "int8", "uint16", "int16", "uint32", "int32", "uint64", "int64", "float16", "float32",
          "float64"]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_every_dtype_matches_skimage(context, method, dtype):
    field = sphere_field()
    if dtype == "bool":
        volume, level = field < 8.0, 0.5
    elif dtype.startswith("float"):
        volume, level = (10.0 - field).astype(dtype), 1.75
    else:
        volume, level = np.clip(100 - 8 * field, 0, 100).astype(dtype), 40.5
    numbers = check(context, volume, level, method)
    assert numbers["faces"] > 300


@pytest.mark.parametrize("method", METHODS)
def test_saddles_default_level_and_options_match_skimage(context, method):
    gyroid = gyroid_field()
    check(context, gyroid, None, method)                      # level: (min + max) / 2
    check(context, gyroid, 0.3, method, gradient_direction="ascent")
    check(context, gyroid, -0.2, method, step_size=2)


def test_levels_on_samples_and_degenerate_triangles_match_skimage(context):
    # An integral level on integer data: samples equal to it are outside, as skimage has them.
    # Vertices on samples put triangles in cell faces, whose cell (for
    # `values`) is then ambiguous: values equal at 95.0% (measured, every run).
    volume = np.clip(40 - 3 * sphere_field((20, 22, 24)), 0, 40).astype(np.int16)
    check(context, volume, 10, values_share=0.94)
    ours = isoscope.marching_cubes(volume, 10, allow_degenerate=False, context=context)
    theirs = skimage_measure.marching_cubes(volume, 10, method="lorensen", allow_degenerate=False)
    assert len(ours[1]) == len(theirs[1]) and len(ours[0]) == len(theirs[0])
    area = np.linalg.norm(np.cross(ours[0][ours[1][:, 1]] - ours[0][ours[1][:, 0]],
                                   ours[0][ours[1][:, 2]] - ours[0][ours[1][:, 0]]), axis=1)
    assert np.all(area > 0), "a degenerate triangle is left"


REAL = [("anatomical_33x41x25_int16", 5000.5, (2.0, 2.0, 2.0)), ("fmri_128x96x24_int16", 300.5, (2.2, 2.0, 2.0))]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("name,level,spacing", REAL)
def test_real_volumes_match_skimage(context, method, name, level, spacing):
    numbers = check(context, read_dataset(name), level, method, spacing=spacing)
    assert numbers["faces"] > 10000
    # The same estimator as skimage's, not only the same side: equal to float rounding.
    assert numbers["normals_dot_gt_0.9999"] >= 0.999


def test_engine_ct_matches_skimage(context):
    numbers = check(context, read_dataset("engine_256x256x128_uint8"), 150.5, "block")
    assert numbers["faces"] > 300000
    assert numbers["normals_dot_gt_0.9999"] >= 0.999


def test_normals_without_skimage_table_count_the_engine_triangles(context, monkeypatch):
    # Without scikit-image's case table the engine's triangles weight the
    # cells: the same estimator, split along other diagonals in some cells.
    import isoscope._marching_cubes as mc
    monkeypatch.setattr(mc, "_skimage_edge_uses", lambda: None)
    numbers = check(context, sphere_field(), 6.3, "block")
    assert numbers["normals_dot_gt_0.9"] >= 0.99
