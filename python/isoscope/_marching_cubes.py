"""scikit-image's marching_cubes on the GPU: same arguments, same outputs.

The output matches skimage.measure.marching_cubes(method='lorensen'): the
same vertices (one per crossed grid edge) in the array's axis order scaled by
spacing, the same triangle count, normals pointing the same way, faces wound
the same way, the same per-vertex `values`, and skimage's normals (its
estimator, computed on the host after the GPU extraction). Vertex and face order differ,
and so may the diagonal a cell's quadrilateral or hexagon is split along:
isoscope's case table is VTK's, scikit-image's is Lorensen's classic one.
"""
import functools
import math
import time

import numpy as np

from . import _isoscope

_METHODS = ("block", "scan", "histopyramid")


def _engine_level(level, dtype):
    """The float32 isovalue whose `value >= iso` selects what skimage's
    `value > level` does. Only where a sample could equal `level` does it move
    one float32 step up (an error below 1e-5 voxel for |level| < 128)."""
    f = np.float32(level)
    if float(f) > level:
        return float(f)
    if float(f) == level and np.issubdtype(dtype, np.integer) and level != math.floor(level):
        return float(f)  # integers never equal a fractional level
    return float(np.nextafter(f, np.float32(np.inf)))


@functools.lru_cache(maxsize=None)
def _skimage_edge_uses():
    """Per cell case (skimage's corner numbering) and cell edge (lower corner
    dx + 2 dy + 4 dz, times 3, plus the axis), how many triangles of
    scikit-image's classic case table use the edge: its normals add a cell's
    gradient once per such triangle. Read from the installed scikit-image;
    None without it (the engine's triangles are counted then, which agrees
    with skimage's normals less closely on noisy data)."""
    try:
        from skimage.measure import _marching_cubes_lewiner as sk
        from skimage.measure import _marching_cubes_lewiner_luts as luts
        table = sk._to_array(luts.CASESCLASSIC)
        ends = np.stack([sk.EDGETORELATIVEPOSX, sk.EDGETORELATIVEPOSY, sk.EDGETORELATIVEPOSZ], axis=-1)
    except (ImportError, AttributeError):
        return None
    uses = np.zeros((256, 24), np.int32)
    for case in range(256):
        for edge in table[case]:
            if edge < 0:
                break
            a, b = ends[edge]
            along = int(np.argmax(a != b))
            low = np.minimum(a, b)
            uses[case, (int(low[0]) + 2 * int(low[1]) + 4 * int(low[2])) * 3 + along] += 1
    return uses

def marching_cubes(volume, level=None, *, spacing=(1., 1., 1.), gradient_direction='descent', step_size=1,
                   allow_degenerate=True, method='block', mask=None, context=None, stats=None):
    """Marching cubes on the GPU, a drop-in for skimage.measure.marching_cubes.

    Parameters are scikit-image's (0.19):
    volume : (M, N, P) array of any numeric dtype, any layout (C and Fortran
        order upload without a copy).
    level : float, optional; default (min + max) / 2 of the volume.
    spacing : three floats, per array axis; scales the vertices.
    gradient_direction : 'descent' (the object is greater than the exterior)
        or 'ascent'; reverses the faces' winding as scikit-image does.
    step_size : int >= 1, every step_size-th sample along each axis.
    allow_degenerate : False removes zero-area triangles as scikit-image does.
    method : isoscope's GPU algorithm, 'block' (default), 'scan' or
        'histopyramid', all giving one mesh; 'lorensen' is taken as 'block'
        (it is what the output equals). 'lewiner' is refused: its
        topology-resolving tables are not isoscope's.
    mask : not supported (must be None).
    context : an isoscope.Context; default isoscope.default_context().
    stats : a dict to fill with timings (isoscope's addition): upload_ms,
        extract_ms (GPU submission to read-back), gpu_ms (the passes' GPU time),
        finish_ms (values and the rest on the host), total_ms.

    Returns (verts, faces, normals, values) as scikit-image does: verts
    (V, 3) float32 (float64 when spacing is not all ones), faces (F, 3)
    int32, normals (V, 3) float32 unit length, values (V,) float32 (the largest
    spread of a cell around each vertex, scikit-image's measure).

    Raises ValueError (not 3D, smaller than 2x2x2, level outside the data's
    range or NaN, bad spacing/step_size/gradient_direction/method), TypeError
    (object or non-numeric arrays), NotImplementedError (mask),
    RuntimeError (no surface at the level, as scikit-image), MemoryError
    (a volume beyond the device's memory).
    """
    start = time.perf_counter()
    if mask is not None:
        raise NotImplementedError("isoscope.marching_cubes: mask is not supported; pass mask=None "
                                  "(or use skimage.measure.marching_cubes for masked extraction)")
    if method == 'lorensen':
        method = 'block'
    if method == 'lewiner':
        raise ValueError("isoscope.marching_cubes: method 'lewiner' is not supported; isoscope's output equals "
                         "method='lorensen'. Choose method 'block', 'scan' or 'histopyramid'")
    if method not in _METHODS:
        raise ValueError(f"isoscope.marching_cubes: method {method!r} is not one of 'block', 'scan', "
                         "'histopyramid' (or 'lorensen')")
    if gradient_direction not in ('descent', 'ascent'):
        raise ValueError(f"Incorrect input {gradient_direction} in `gradient_direction`: "
                         "use 'descent' or 'ascent'")
    if not isinstance(volume, np.ndarray) or volume.ndim != 3:
        raise ValueError('Input volume should be a 3D numpy array.')
    if volume.dtype == object or not (np.issubdtype(volume.dtype, np.number) or volume.dtype == bool):
        raise TypeError(f"Input volume has dtype {volume.dtype}; give a numeric array")
    if min(volume.shape) < 2:
        raise ValueError("Input array must be at least 2x2x2.")
    if len(spacing) != 3:
        raise ValueError("`spacing` must consist of three floats.")
    if not all(math.isfinite(float(s)) and float(s) > 0 for s in spacing):
        raise ValueError(f"`spacing` must be three positive numbers; got {tuple(spacing)}")
    step = int(step_size)
    if step < 1:
        raise ValueError('step_size must be at least one.')
    if step > 1:
        # skimage's cells of `step` samples: the samples at multiples of it (a strided view).
        volume = volume[::step, ::step, ::step]
        if min(volume.shape) < 2:
            raise ValueError(f"step_size {step} leaves fewer than 2 samples along an axis of {volume.shape}")
    if context is None:
        from . import default_context
        context = default_context()

    v = _isoscope.Volume.from_numpy(volume, context=context)
    uploaded = time.perf_counter()
    lo, hi = v.value_range
    if level is None:
        # As skimage: in float32, the type it converts the volume to.
        level = 0.5 * (np.float32(lo) + np.float32(hi))
    level = float(level)
    if math.isnan(level):
        raise ValueError("Surface level must be within volume data range: level is NaN.")
    if level < lo or level > hi:
        raise ValueError(f"Surface level must be within volume data range: {level} is outside [{lo}, {hi}].")

    engine_level = _engine_level(level, volume.dtype)
    verts, faces, normals = _isoscope.extract(v, engine_level, method)
    extracted = time.perf_counter()
    if engine_level != level:
        # Moved up a float32 step: vertices skimage puts on a sample equal to
        # the level (within 1e-8 voxel, so on it in float32) moved off it by
        # that step over the edge's rise. Back on it, so that its degenerate
        # triangles (allow_degenerate=False) are the same.
        near = np.rint(verts)
        snap = np.abs(verts - near) <= 2 * np.spacing(np.float32(abs(level)))
        verts[snap] = near[snap]
    if len(verts) == 0:
        raise RuntimeError('No surface found at the given iso value.')
    if gradient_direction == 'descent':
        # skimage's faces for 'descent' turn clockwise around its normals.
        faces = np.ascontiguousarray(faces[:, ::-1])
    samples = volume if volume.dtype in (np.uint8, np.uint16, np.int16, np.float32) else volume.astype(np.float32)
    # skimage's own normal estimator, so that shading matches it; extract() keeps the engine's.
    values, normals = _isoscope._vertex_attributes(samples, verts, faces, level, _skimage_edge_uses())
    if step > 1:
        verts *= step
    if not np.array_equal(spacing, (1, 1, 1)):
        verts = verts * np.r_[spacing]
    if not allow_degenerate:
        verts, faces, normals, values = _isoscope._remove_degenerate_faces(
            verts.astype(np.float32), faces, normals, values)
    if stats is not None:
        done = time.perf_counter()
        gpu = _isoscope.last_pass_times(v, method)
        stats.update(upload_ms=(uploaded - start) * 1e3, extract_ms=(extracted - uploaded) * 1e3,
                     gpu_ms=sum(gpu.values()), gpu_ms_per_pass=gpu, finish_ms=(done - extracted) * 1e3,
                     total_ms=(done - start) * 1e3, vertices=len(verts), faces=len(faces))
    return verts, faces, normals, values
