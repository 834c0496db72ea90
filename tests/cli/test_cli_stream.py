#!/usr/bin/env python3
"""Streamed extraction through the CLI (issue 27): `extract --stream` writes
the in-core mesh (the same vertices and triangles, in another order) to PLY
and STL as the slabs come, from raw files and gzip NRRD; --device-budget is parsed with units, refused with
a clear error when malformed, and a budget too small for one slab fails
before anything is read; a raw file larger than the budget streams with a
peak resident set below the file's size (the child's own getrusage, from
wait4, and the stats' figure); the stats JSON holds what the H100 benchmark
reports."""
import gzip
import json
import os
import struct
import subprocess
import sys
import tempfile

import numpy as np

from cli_support import BIN, check, finish

STREAM_STATS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "stream_stats.py")


def run(args, cwd):
    return subprocess.run([BIN, *args], cwd=cwd, capture_output=True, text=True, timeout=600)


def run_with_peak(args, cwd):
    """(exit code, stderr, the child's own peak resident set in bytes, from wait4)."""
    process = subprocess.Popen([BIN, *args], cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    return os.waitstatus_to_exitcode(status), process.stderr.read().decode(), usage.ru_maxrss * 1024


def read_ply(path):
    """(positions as raw float bits n x 3, triangles as index triples) of our binary PLY."""
    data = open(path, "rb").read()
    end = data.index(b"end_header\n") + len(b"end_header\n")
    header = data[:end].decode()
    vertices = int(header.split("element vertex ")[1].split()[0])
    faces = int(header.split("element face ")[1].split()[0])
    props = header.count("property float")
    v = np.frombuffer(data, dtype="<u4", count=vertices * props, offset=end).reshape(vertices, props)
    f = np.frombuffer(data, dtype=np.uint8, count=faces * 13, offset=end + vertices * props * 4).reshape(faces, 13)
    check(bool(np.all(f[:, 0] == 3)), f"{path}: every face has 3 corners")
    tris = f[:, 1:].copy().view("<u4").reshape(faces, 3)
    return v[:, :3], tris


def canonical(positions, triangles):
    """Vertices sorted by their position's bits; triangles as position ranks, rotated and sorted."""
    keys = [tuple(p) for p in positions]
    unique = sorted(set(keys))
    rank = {k: i for i, k in enumerate(unique)}
    tris = []
    for t in triangles:
        r = [rank[keys[i]] for i in t]
        m = r.index(min(r))
        tris.append(tuple(r[m:] + r[:m]))
    return sorted(keys), sorted(tris)


with tempfile.TemporaryDirectory(dir=os.environ.get("ISOSCOPE_TEST_TMP")) as tmp:
    # A raw uint8 volume: a ball and a slab of noise, sizes that are no multiple of anything.
    dims = (37, 29, 53)
    z, y, x = np.mgrid[0:dims[2], 0:dims[1], 0:dims[0]]
    ball = 255 - np.minimum(255, ((x - 18) ** 2 + (y - 14) ** 2 + (z - 26) ** 2) // 2)
    rng = np.random.default_rng(27)
    ball[40:45] = rng.integers(0, 256, size=ball[40:45].shape)
    raw = os.path.join(tmp, f"ball_{dims[0]}x{dims[1]}x{dims[2]}_uint8.raw")
    ball.astype(np.uint8).tofile(raw)

    r = run(["extract", raw, "--iso", "200", "--method", "block", "-o", "incore.ply"], tmp)
    check(r.returncode == 0, f"in-core extraction runs: {r.stderr.strip()}")
    reference = canonical(*read_ply(os.path.join(tmp, "incore.ply")))
    for layers in ("2", "5", "26"):
        r = run(["extract", raw, "--iso", "200", "--method", "block", "--stream", "--slab-layers", layers,
                 "-o", f"streamed{layers}.ply", "--stats", f"stats{layers}.json"], tmp)
        check(r.returncode == 0, f"--stream --slab-layers {layers} runs: {r.stderr.strip()}")
        if r.returncode == 0:
            streamed = canonical(*read_ply(os.path.join(tmp, f"streamed{layers}.ply")))
            check(streamed[0] == reference[0], f"{layers} layers a slab: the in-core vertices, bit for bit "
                                               f"({len(streamed[0])} vs {len(reference[0])})")
            check(streamed[1] == reference[1], f"{layers} layers a slab: the in-core triangles")
            stats = json.load(open(os.path.join(tmp, f"stats{layers}.json")))
            slabs = -(-52 // int(layers))
            check(stats["slab_count"] == slabs and len(stats["slabs"]) == slabs,
                  f"{layers} layers a slab: {slabs} slabs in the stats")
            for key in ("end_to_end_gb_per_s", "peak_device_bytes", "peak_host_bytes", "upload_gpu_ms",
                        "extract_gpu_ms", "bytes_read", "wall_ms", "graph_setup_ms", "gpu_wait_ms", "download_ms",
                        "read_back_gpu_ms", "weld_ms", "weld_sink_ms", "weld_wait_ms"):
                check(key in stats, f"stats hold {key}")
            check(all("upload_gpu_ms" in s and "extract_gpu_ms" in s for s in stats["slabs"]),
                  "each slab's upload and extraction times are in the stats")
            check(all(s["graph_setup_ms"] > 0 and s["weld_ms"] > 0 for s in stats["slabs"]),
                  "each slab's host setup and weld were timed")
            check(all(0 < s["weld_sink_ms"] <= s["weld_ms"] for s in stats["slabs"]),
                  "each slab's time in the sink was timed, as a part of its weld")
            check(stats["wall_ms"] >= stats["graph_setup_ms"] + stats["gpu_wait_ms"],
                  "the main thread's setup and GPU waits fit in the wall time")
            check(all(s["slab_wall_ms"] >= s["wait_ms"] + s["graph_setup_ms"] + s["gpu_wait_ms"] + s["download_ms"]
                      for s in stats["slabs"]), "each slab's main-thread time holds its measured parts")
            check(stats["output_ms"] > 0 and
                  stats["end_to_end_with_output_gb_per_s"] < stats["end_to_end_gb_per_s"],
                  f"finishing the PLY after the extraction is timed ({stats['output_ms']:.1f} ms) and counted "
                  "in the rate with the output")
            check(f"ms finishing streamed{layers}.ply" in r.stdout, f"the summary line says so: {r.stdout.strip()}")
            # tools/stream_stats.py reads the stats back: the run's wall time, weld and sink in its row.
            table = subprocess.run([sys.executable, STREAM_STATS, f"stats{layers}.json"], cwd=tmp,
                                   capture_output=True, text=True, timeout=60)
            rows = [line for line in table.stdout.splitlines() if line.startswith(f"| stats{layers}.json |")]
            check(table.returncode == 0 and len(rows) == 1 and f"| {stats['wall_ms']:.1f} |" in rows[0] and
                  f"| {stats['weld_ms']:.0f} ({stats['weld_sink_ms']:.0f}) |" in rows[0],
                  f"tools/stream_stats.py summarises the stats: {table.stdout.strip()} {table.stderr.strip()}")

    # The scan method streams too, into its own in-core mesh; --stream alone streams with the block method;
    # methods whose work spans the whole volume are refused naming --method.
    r = run(["extract", raw, "--iso", "200", "--method", "scan", "-o", "incore_scan.ply"], tmp)
    check(r.returncode == 0, f"in-core scan extraction runs: {r.stderr.strip()}")
    scan_reference = canonical(*read_ply(os.path.join(tmp, "incore_scan.ply")))
    for layers in ("3", "13"):
        r = run(["extract", raw, "--iso", "200", "--method", "scan", "--stream", "--slab-layers", layers,
                 "-o", f"scan{layers}.ply", "--stats", f"scan{layers}.json"], tmp)
        check(r.returncode == 0, f"--stream --method scan --slab-layers {layers} runs: {r.stderr.strip()}")
        if r.returncode == 0:
            streamed = canonical(*read_ply(os.path.join(tmp, f"scan{layers}.ply")))
            check(streamed == scan_reference, f"scan, {layers} layers a slab: the in-core scan mesh")
            stats = json.load(open(os.path.join(tmp, f"scan{layers}.json")))
            check(stats["method"] == "scan" and stats["slab_count"] == -(-52 // int(layers)),
                  f"scan, {layers} layers a slab: the stats name the method and the slabs")
            check(r.stdout.startswith("scan (streamed"), f"the summary names the method: {r.stdout.strip()}")
    r = run(["extract", raw, "--iso", "200", "--stream", "--slab-layers", "9", "--stats", "default.json"], tmp)
    check(r.returncode == 0 and json.load(open(os.path.join(tmp, "default.json")))["method"] == "block",
          f"--stream without --method streams with the block method: {r.stderr.strip()}")
    for method in ("histopyramid", "dual"):
        r = run(["extract", raw, "--iso", "200", "--method", method, "--stream"], tmp)
        check(r.returncode != 0 and f"not '{method}'" in r.stderr and "--method block or --method scan" in r.stderr,
              f"--stream --method {method} is refused naming the option: {r.stderr.strip()[:200]}")

    # A gzip NRRD of the same samples: inflated slab by slab as the slabs ask, the same mesh.
    nrrd = os.path.join(tmp, "ball_gzip.nrrd")
    with open(nrrd, "wb") as f:
        f.write(f"NRRD0004\ntype: uint8\ndimension: 3\nsizes: {dims[0]} {dims[1]} {dims[2]}\n"
                "encoding: gzip\n\n".encode())
        f.write(gzip.compress(ball.astype(np.uint8).tobytes()))
    r = run(["extract", nrrd, "--iso", "200", "--method", "block", "--stream", "--slab-layers", "6",
             "-o", "gzip_streamed.ply"], tmp)
    check(r.returncode == 0, f"--stream on a gzip NRRD runs: {r.stderr.strip()}")
    if r.returncode == 0:
        streamed = canonical(*read_ply(os.path.join(tmp, "gzip_streamed.ply")))
        check(streamed == reference, "the gzip NRRD streams into the in-core mesh of the raw file")

    # STL, written triangle by triangle as the slabs come.
    r = run(["extract", raw, "--iso", "200", "--method", "block", "--stream", "--slab-layers", "7", "-o", "s.stl"], tmp)
    check(r.returncode == 0, f"--stream to STL runs: {r.stderr.strip()}")
    stl = open(os.path.join(tmp, "s.stl"), "rb").read()
    count = struct.unpack_from("<I", stl, 80)[0]
    check(count == len(reference[1]) and len(stl) == 84 + 50 * count,
          f"the streamed STL holds the in-core mesh's {len(reference[1])} triangles ({count})")

    # Budgets: units, malformed values, one slab that cannot fit.
    for bad in ("0", "-1GiB", "2 GiB", "1.5XB", "nan", "GiB", "2e99GiB"):
        r = run(["extract", raw, "--iso", "200", "--method", "block", f"--device-budget={bad}"], tmp)
        check(r.returncode == 2 and "--device-budget" in r.stderr,
              f"--device-budget {bad!r} is refused naming the option: {r.stderr.strip()[:120]}")
    r = run(["extract", raw, "--iso", "200", "--method", "block", "--stream", "--device-budget", "4KiB"], tmp)
    check(r.returncode != 0 and "a slab of one cell layer needs" in r.stderr and "4.00 KiB" in r.stderr,
          f"a budget below one slab fails with the numbers: {r.stderr.strip()[:200]}")
    r = run(["extract", raw, "--iso", "200", "--method", "cpu", "--stream"], tmp)
    check(r.returncode == 2 and "GPU" in r.stderr, f"--stream with the CPU method is refused: {r.stderr.strip()}")
    nii = os.path.join(tmp, "not_streamable.vtk")
    open(nii, "w").write("# vtk DataFile Version 3.0\n")
    r = run(["extract", nii, "--iso", "1", "--method", "block", "--stream"], tmp)
    check(r.returncode != 0 and "raw" in r.stderr, f"--stream on a format not read in place says which are: "
                                                   f"{r.stderr.strip()[:160]}")

    # Automatic: a budget the volume does not fit streams it, and says so (the ball without the noise).
    smooth = os.path.join(tmp, f"smooth_{dims[0]}x{dims[1]}x{dims[2]}_uint8.raw")
    np.clip(255 - ((x - 18) ** 2 + (y - 14) ** 2 + (z - 26) ** 2) // 2, 0, 255).astype(np.uint8).tofile(smooth)
    r = run(["extract", smooth, "--iso", "200", "--method", "block", "-o", "smooth.ply"], tmp)
    check(r.returncode == 0, f"in-core extraction of the ball runs: {r.stderr.strip()}")
    reference = canonical(*read_ply(os.path.join(tmp, "smooth.ply")))
    r = run(["extract", smooth, "--iso", "200", "--method", "block", "--device-budget", "64KiB", "-o", "auto.ply",
             "--stats", "auto.json"], tmp)
    check(r.returncode == 0 and "slabs" in r.stderr, f"a budget the volume does not fit streams it: {r.stderr.strip()}")
    if r.returncode == 0:
        check(canonical(*read_ply(os.path.join(tmp, "auto.ply"))) == reference, "... into the in-core mesh")
        stats = json.load(open(os.path.join(tmp, "auto.json")))
        check(stats["streamed"] and stats["slab_count"] >= 2 and stats["peak_device_bytes"] <= 64 * 1024,
              f"... in {stats['slab_count']} slabs, peak device bytes {stats['peak_device_bytes']} within the budget")
    r = run(["extract", smooth, "--iso", "200", "--stream", "--device-budget", "64KiB", "--stats", "no_output.json"],
            tmp)
    check(r.returncode == 0, f"the ball streams without an output file: {r.stderr.strip()}")
    if r.returncode == 0:
        stats = json.load(open(os.path.join(tmp, "no_output.json")))
        check(stats["output_ms"] == 0 and "finishing" not in r.stdout,
              "without an output file nothing is finished after the extraction")

    # The two ceilings the H100 benchmark reports: the pinned copy rate, and the source read and uploaded alone.
    r = run(["extract", smooth, "--iso", "200", "--stream", "--device-budget", "64KiB", "--measure-copy",
             "--measure-source", "--stats", "ceilings.json"], tmp)
    check(r.returncode == 0, f"--measure-copy --measure-source run: {r.stderr.strip()}")
    if r.returncode == 0:
        stats = json.load(open(os.path.join(tmp, "ceilings.json")))
        source = stats.get("source_ceiling", {})
        check(source.get("bytes") == os.path.getsize(smooth) and source.get("pieces", 0) >= 2,
              f"the source ceiling read the whole file once, in pieces of 1/16 of the budget: {source}")
        check(stats.get("copy_ceiling_gb_per_s", 0) > 0 and stats.get("source_ceiling_gb_per_s", 0) > 0 and
              stats.get("fraction_of_source_ceiling", 0) > 0 and
              "source_fraction_of_copy_ceiling" in stats,
              "the stats hold both ceilings and the run's fractions of them")
        check(stats["vertices"] > 0 and stats["slab_count"] >= 2, "the extraction after them ran as before")
        table = subprocess.run([sys.executable, STREAM_STATS, "ceilings.json"], cwd=tmp, capture_output=True,
                               text=True, timeout=60)
        check(table.returncode == 0 and f"| {stats['source_ceiling_gb_per_s']:.2f} (" in table.stdout,
              f"tools/stream_stats.py shows the source's rate: {table.stdout.strip()} {table.stderr.strip()}")
    for flag in ("--measure-copy", "--measure-source"):
        r = run(["extract", smooth, "--iso", "200", "--method", "block", flag], tmp)
        check(r.returncode == 2 and f"{flag} needs --stream" in r.stderr,
              f"{flag} without --stream is refused naming it: {r.stderr.strip()[:160]}")

    # A file larger than the budget: the process never holds it. 320 MiB of
    # zeros but a small ball (the sparse part of the file reads as zeros); the
    # process alone (lavapipe's compiler, the libraries) peaks at 130-165 MiB,
    # so a 160 MiB file left no margin under a loaded machine.
    big_dims = (1024, 1024, 320)
    big = os.path.join(tmp, f"big_{big_dims[0]}x{big_dims[1]}x{big_dims[2]}_uint8.raw")
    with open(big, "wb") as f:
        f.truncate(big_dims[0] * big_dims[1] * big_dims[2])
        for zz in range(60, 100):
            plane = np.zeros((big_dims[1], big_dims[0]), dtype=np.uint8)
            yy, xx = np.mgrid[0:big_dims[1], 0:big_dims[0]]
            plane[(xx - 500) ** 2 + (yy - 500) ** 2 + 64 * (zz - 80) ** 2 < 150 ** 2] = 200
            f.seek(zz * big_dims[0] * big_dims[1])
            f.write(plane.tobytes())
    size = os.path.getsize(big)
    code, err, peak = run_with_peak(["extract", big, "--iso", "100", "--method", "block", "--stream",
                                     "--device-budget", "24MiB", "-o", "big.ply", "--stats", "big.json"], tmp)
    check(code == 0, f"a {size >> 20} MiB file streams under a 24 MiB budget: {err.strip()}")
    check(peak < size, f"peak resident set {peak >> 20} MiB (wait4) is below the file's {size >> 20} MiB")
    if os.path.exists(os.path.join(tmp, "big.json")):
        stats = json.load(open(os.path.join(tmp, "big.json")))
        check(stats["peak_host_bytes"] < size and stats["slab_count"] >= 2,
              f"the stats agree: peak host {stats['peak_host_bytes'] >> 20} MiB, {stats['slab_count']} slabs")
        check(stats["vertices"] > 0, f"the ball's surface was found ({stats['vertices']} vertices)")

    # convert generates a synthetic field plane range by plane range: never the whole volume in memory.
    spec = f"sphere:{big_dims[0]}x{big_dims[1]}x{big_dims[2]}"
    code, err, peak = run_with_peak(["convert", spec, "--type", "uint8", "-o", "sphere_big.nhdr", "--quiet"], tmp)
    check(code == 0, f"convert {spec} --type uint8 runs: {err.strip()}")
    check(peak < size, f"convert's peak resident set {peak >> 20} MiB is below the volume's {size >> 20} MiB")
    copy = os.path.join(tmp, "sphere_big.raw")
    if os.path.exists(copy):
        check(os.path.getsize(copy) == size, f"the .raw holds every sample ({os.path.getsize(copy)} bytes)")
        header = open(os.path.join(tmp, "sphere_big.nhdr")).read()
        check(f"sizes: {big_dims[0]} {big_dims[1]} {big_dims[2]}" in header and "type: uchar" in header,
              f"the header names its sizes and type: {header!r}")
        os.remove(copy)
    # A synthetic spec streams the samples the in-core path gives (extract reads both into the same mesh).
    r = run(["convert", "gyroid:20x24x30", "--type", "uint8", "-o", "gyroid.nrrd", "--quiet"], tmp)
    check(r.returncode == 0, f"convert of a synthetic spec runs: {r.stderr.strip()}")
    if r.returncode == 0:
        a = run(["extract", "gyroid.nrrd", "--iso", "150", "--method", "block", "-o", "from_file.ply"], tmp)
        b = run(["extract", "gyroid:20x24x30", "--type", "uint8", "--iso", "150", "--method", "block", "-o",
                 "from_spec.ply"], tmp)
        check(a.returncode == 0 and b.returncode == 0, f"both extract: {a.stderr.strip()} {b.stderr.strip()}")
        if a.returncode == 0 and b.returncode == 0:
            check(canonical(*read_ply(os.path.join(tmp, "from_file.ply"))) ==
                  canonical(*read_ply(os.path.join(tmp, "from_spec.ply"))),
                  "the converted spec's mesh is the spec's own, vertex for vertex")
finish()
