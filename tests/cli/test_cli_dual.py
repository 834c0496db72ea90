#!/usr/bin/env python3
"""`--method dual` through the command line: extract writes real quads to
PLY and OBJ, meshcheck reports the quad mesh closed with the sphere's Euler
characteristic, render draws it, bench times every pass and reports the
edge hash table's memory."""
import json
import os
import subprocess
import tempfile

from cli_support import BIN, check, finish, read_png


def run(*args):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=300)


def ply_face_sizes(path):
    """The vertex count of every face of a binary little-endian PLY as extract writes it."""
    data = open(path, "rb").read()
    end = data.index(b"end_header\n") + len(b"end_header\n")
    header = data[:end].decode().splitlines()
    vertices = int(next(l for l in header if l.startswith("element vertex")).split()[2])
    faces = int(next(l for l in header if l.startswith("element face")).split()[2])
    floats = sum(1 for l in header if l.startswith("property float"))
    offset = end + vertices * floats * 4
    sizes = []
    for _ in range(faces):
        n = data[offset]
        sizes.append(n)
        offset += 1 + 4 * n
    check(offset == len(data), f"the PLY's faces fill the file exactly ({offset} of {len(data)} bytes)")
    return sizes


with tempfile.TemporaryDirectory(dir=os.environ.get("ISOSCOPE_TEST_TMP")) as tmp:
    ply, stats_path = os.path.join(tmp, "dual.ply"), os.path.join(tmp, "dual.json")
    r = run("extract", "sphere:24", "--iso", "0.6", "--method", "dual", "-o", ply, "--stats", stats_path)
    check(r.returncode == 0, f"extract --method dual runs: {r.stderr.strip()}")
    stats = json.load(open(stats_path)) if r.returncode == 0 else {}
    check(stats.get("quads", 0) > 0 and "triangles" not in stats, f"the stats count quads: {stats.get('quads')}")
    if os.path.exists(ply):
        sizes = ply_face_sizes(ply)
        check(len(sizes) == stats.get("quads") and set(sizes) == {4}, "the PLY holds the quads, four corners each")
    r = run("meshcheck", ply, "--json")
    report = json.loads(r.stdout) if r.returncode == 0 else {}
    check(report.get("faces") == stats.get("quads") and report.get("face_size") == 4 and
          report.get("euler_characteristic") == 2 and
          report.get("closed") is True and report.get("inconsistent_edges") == 0,
          f"meshcheck reports the quad sphere closed, Euler 2, consistently oriented ({report})")

    obj = os.path.join(tmp, "dual.obj")
    r = run("extract", "sphere:24", "--iso", "0.6", "--method", "dual", "-o", obj)
    faces = [l.split()[1:] for l in open(obj) if l.startswith("f ")] if r.returncode == 0 else []
    check(len(faces) == stats.get("quads") and all(len(f) == 4 for f in faces), "the OBJ holds the quads")

    png = os.path.join(tmp, "dual.png")
    r = run("render", "sphere:24", "--iso", "0.6", "--method", "dual", "--size", "64x64", "-o", png)
    check(r.returncode == 0 and os.path.exists(png), f"render --method dual writes a PNG: {r.stderr.strip()}")
    if os.path.exists(png):
        width, height, rows = read_png(png)
        background = rows[0][0:4]
        covered = sum(1 for row in rows for x in range(width) if row[4 * x:4 * x + 4] != background)
        check(0.05 * width * height < covered < 0.9 * width * height, f"the quads are drawn: {covered} pixels")

    bench_json = os.path.join(tmp, "bench-dual.json")
    r = run("bench", "cayley:24", "--iso", "-0.012", "--method", "dual", "--repeat", "3", "--warmup", "1",
            "-o", bench_json)
    check(r.returncode == 0 and os.path.exists(bench_json), f"bench --method dual writes JSON: {r.stderr.strip()}")
    if os.path.exists(bench_json):
        bench = json.load(open(bench_json))
        check(set(bench["gpu_ms"]) >= {"clear_table", "cells", "quads"} and
              all(ms > 0 for ms in bench["gpu_ms"].values()), f"bench dual times every pass: {bench['gpu_ms']}")
        work = bench.get("work", {})
        check(work.get("hash_table_bytes") == 20 * work.get("hash_buckets", 0) > 0 and
              work.get("edges_stored") == bench.get("quads", -1),
              f"bench dual reports the hash table's memory and its edges: {work}")
        floor_bytes = 24 ** 3 * 4 + bench["vertices"] * 24 + bench["quads"] * 16
        check(abs(bench["floor_ms"] - floor_bytes / 3.09e12 * 1e3) < 1e-9, "bench dual floor: four indices a quad")
finish()
