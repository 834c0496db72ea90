#!/usr/bin/env python3
"""isoscope.marching_cubes against skimage.measure.marching_cubes on the same
arrays (issue 26's table in docs/BENCHMARKS.md): wall time from the NumPy
array in to the arrays out (upload and read-back included), and the share of
it the GPU spent in the extraction's passes. Prints one JSON object per line.

    PYTHONPATH=build/release/python /usr/bin/python3 tools/bench_python.py [--sizes 256 512 1024]
        [--repeat 3] [--methods block scan histopyramid] [--no-skimage]

Without scikit-image (or with --no-skimage) only isoscope is timed;
--skimage-only times scikit-image alone, without importing isoscope (for a
machine whose Python lacks the module's ABI: run the two halves under two
interpreters).
"""
import argparse
import json
import statistics
import sys
import time

import numpy as np


def cayley(n):
    """The CLI's `cayley` field, in float32 (smooth, a surface through the whole grid)."""
    axis = np.linspace(-1.0, 1.0, n, dtype=np.float32)
    x, y = axis[None, :, None], axis[None, None, :]
    volume = np.empty((n, n, n), np.float32)
    for i, z in enumerate(axis):  # slice by slice: 1024^3 float32 is 4 GiB, its temporaries would be more
        volume[i] = 16 * x * y * z + 4 * x * x + 4 * y * y + 4 * z * z - 1
    return volume


def time_isoscope(volume, level, method, repeat, context):
    import isoscope
    runs = []
    for _ in range(repeat + 1):  # the first run compiles pipelines and warms up: untimed
        stats = {}
        isoscope.marching_cubes(volume, level, method=method, context=context, stats=stats)
        runs.append(stats)
    runs = runs[1:]
    wall = statistics.median(r["total_ms"] for r in runs)
    gpu = statistics.median(r["gpu_ms"] for r in runs)
    return {"library": "isoscope", "method": method, "wall_ms": wall, "gpu_ms": gpu, "gpu_share": gpu / wall,
            "upload_ms": statistics.median(r["upload_ms"] for r in runs),
            "extract_ms": statistics.median(r["extract_ms"] for r in runs),
            "finish_ms": statistics.median(r["finish_ms"] for r in runs),
            "faces": runs[-1]["faces"], "vertices": runs[-1]["vertices"], "runs": [r["total_ms"] for r in runs]}


def time_skimage(volume, level, repeat):
    from skimage.measure import marching_cubes
    runs, faces = [], 0
    for _ in range(repeat):
        start = time.perf_counter()
        verts, tris, _, _ = marching_cubes(volume, level, method="lorensen")
        runs.append((time.perf_counter() - start) * 1e3)
        faces = len(tris)
    return {"library": "skimage", "method": "lorensen", "wall_ms": statistics.median(runs), "faces": faces,
            "runs": runs}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[256, 512, 1024])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--methods", nargs="+", default=["block", "scan", "histopyramid"])
    parser.add_argument("--level", type=float, default=-0.012, help="isovalue (the CLI's cayley default)")
    parser.add_argument("--no-skimage", action="store_true", help="time isoscope only")
    parser.add_argument("--skimage-max-size", type=int, default=1024, help="skip skimage above this size")
    parser.add_argument("--skimage-only", action="store_true", help="time skimage only (isoscope not imported)")
    parser.add_argument("--skimage-repeat", type=int, nargs="+", default=None,
                        help="skimage runs per size (default: --repeat for every size)")
    args = parser.parse_args()
    skimage = not args.no_skimage
    if skimage:
        try:
            import skimage.measure  # noqa: F401
        except ImportError:
            print("bench_python: scikit-image not found: isoscope only", file=sys.stderr)
            skimage = False
    context = None
    if not args.skimage_only:
        import isoscope
        context = isoscope.default_context()
    print(json.dumps({"device": context.info if context else None, "numpy": np.__version__,
                      "python": sys.version.split()[0]}), flush=True)
    for i, n in enumerate(args.sizes):
        volume = cayley(n)
        common = {"size": n, "shape": list(volume.shape), "dtype": str(volume.dtype), "level": args.level}
        for method in [] if args.skimage_only else args.methods:
            print(json.dumps({**common, **time_isoscope(volume, args.level, method, args.repeat, context)}),
                  flush=True)
        if skimage and n <= args.skimage_max_size:
            repeat = args.skimage_repeat[min(i, len(args.skimage_repeat) - 1)] if args.skimage_repeat else args.repeat
            print(json.dumps({**common, **time_skimage(volume, args.level, repeat)}), flush=True)
        del volume


if __name__ == "__main__":
    main()
