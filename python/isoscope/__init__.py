"""isoscope: GPU isosurfaces and volume rendering of NumPy arrays (Vulkan).

    from isoscope import marching_cubes          # scikit-image's, on the GPU
    verts, faces, normals, values = marching_cubes(volume, 0.5)

    import isoscope
    context = isoscope.Context()                  # or default_context()
    v = isoscope.Volume.from_numpy(array, spacing=(1, 1, 2), context=context)
    verts, faces, normals = isoscope.extract(v, 0.5, method="block")
    rgba = isoscope.render(v, 0.5, mode="raycast", size=(640, 480))
    stats = isoscope.bench(v, 0.5, repeat=10)
"""
import threading

from ._isoscope import Context, Volume, _live_context, bench, extract, last_pass_times, render
from ._marching_cubes import marching_cubes

__all__ = ["Context", "Volume", "bench", "default_context", "extract", "last_pass_times", "marching_cubes", "render"]

_default = None
_default_lock = threading.Lock()


def default_context():
    """The Context that calls given no context use: the one alive in this
    process (one per process), else one made now (ISOSCOPE_DEVICE and
    ISOSCOPE_VALIDATION=1 apply) and kept."""
    global _default
    with _default_lock:
        live = _live_context()
        if live is not None:
            return live
        _default = Context()
        return _default
