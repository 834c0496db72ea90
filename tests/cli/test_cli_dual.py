#!/usr/bin/env python3
"""`--method dual` through the command line: extract writes real quads to
PLY and OBJ, meshcheck reports the quad mesh closed with the sphere's Euler
characteristic, render draws it, bench times every pass and reports the
edge hash table's memory."""
import json
import os
import struct
import subprocess
import tempfile

from cli_support import BIN, check, finish, read_png


def run(*args):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=300)


def ply_faces(path):
    """The faces of a binary little-endian PLY as extract writes it."""
    data = open(path, "rb").read()
    end = data.index(b"end_header\n") + len(b"end_header\n")
    header = data[:end].decode().splitlines()
    vertices = int(next(l for l in header if l.startswith("element vertex")).split()[2])
    count = int(next(l for l in header if l.startswith("element face")).split()[2])
    floats = sum(1 for l in header if l.startswith("property float"))
    offset = end + vertices * floats * 4
    faces = []
    for _ in range(count):
        n = data[offset]
        faces.append(struct.unpack_from(f"<{n}I", data, offset + 1))
        offset += 1 + 4 * n
    check(offset == len(data), f"the PLY's faces fill {path} exactly ({offset} of {len(data)} bytes)")
    return vertices, faces


def read_halfedges(path):
    """(vertices, faces, halfedges as (origin, face, next, twin), vertex halfedges, vertex colours, face colours)."""
    data = open(path, "rb").read()
    check(data[:8] == b"ISOHALF1", "the halfedge file starts with its magic")
    vertices, faces, count, flags = struct.unpack_from("<4I", data, 8)
    words = struct.unpack_from(f"<{(len(data) - 24) // 4}I", data, 24)
    halfedges = [words[4 * h:4 * h + 4] for h in range(count)]
    rest = words[4 * count:]
    vertex_halfedges, rest = rest[:vertices], rest[vertices:]
    vertex_colors, face_colors = (rest[:vertices], rest[vertices:]) if flags & 1 else ([], [])
    check(len(face_colors) == (faces if flags & 1 else 0), "the halfedge file has the size its counts give")
    return vertices, faces, halfedges, vertex_halfedges, vertex_colors, face_colors


with tempfile.TemporaryDirectory(dir=os.environ.get("ISOSCOPE_TEST_TMP")) as tmp:
    ply, stats_path = os.path.join(tmp, "dual.ply"), os.path.join(tmp, "dual.json")
    r = run("extract", "sphere:24", "--iso", "0.6", "--method", "dual", "-o", ply, "--stats", stats_path)
    check(r.returncode == 0, f"extract --method dual runs: {r.stderr.strip()}")
    stats = json.load(open(stats_path)) if r.returncode == 0 else {}
    check(stats.get("quads", 0) > 0 and "triangles" not in stats, f"the stats count quads: {stats.get('quads')}")
    if os.path.exists(ply):
        _, faces = ply_faces(ply)
        check(len(faces) == stats.get("quads") and {len(f) for f in faces} == {4},
              "the PLY holds the quads, four corners each")
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
    # --halfedges --colors: the binary beside the mesh, checked here against the PLY's quads.
    torus = os.path.join(tmp, "torus.ply")
    r = run("extract", "torus:40x36x30", "--iso", "0.04", "--method", "dual", "--halfedges", "--colors", "-o", torus)
    check(r.returncode == 0 and os.path.exists(torus + ".halfedges"),
          f"extract --halfedges --colors writes MESH.halfedges: {r.stderr.strip()}")
    if os.path.exists(torus + ".halfedges"):
        vertex_count, quads = ply_faces(torus)
        vertices, faces, he, vertex_he, vertex_colors, face_colors = read_halfedges(torus + ".halfedges")
        check((vertices, faces, len(he)) == (vertex_count, len(quads), 4 * len(quads)),
              "the halfedge file counts the PLY's vertices and quads, four halfedges each")
        NONE = 0xFFFFFFFF
        target = lambda h: he[he[h][2]][0]
        check(all(he[h][0] == quads[h // 4][h % 4] and he[h][1] == h // 4 for h in range(len(he))),
              "halfedge h leaves corner h % 4 of face h / 4")
        check(all(he[he[he[he[h][2]][2]][2]][2] == h for h in range(len(he))), "next applied four times returns h")
        check(all(he[h][3] != NONE and he[he[h][3]][3] == h for h in range(len(he))),
              "every halfedge of the closed torus has a twin, and twin(twin(h)) = h")
        check(all(he[he[h][3]][0] == target(h) and target(he[h][3]) == he[h][0] for h in range(len(he))),
              "twins run opposite ways")
        check(all(vertex_he[v] != NONE and he[vertex_he[v]][0] == v for v in range(vertices)),
              "each vertex's halfedge leaves it")
        check(all(vertex_colors[he[h][0]] != vertex_colors[target(h)] for h in range(len(he))),
              "no edge joins two vertices of one colour")
        check(all(c < 5 for c in face_colors) and
              all(face_colors[h // 4] != face_colors[he[h][3] // 4] for h in range(len(he))),
              "five face colours, none shared across an edge")
    r = run("extract", "torus:20", "--iso", "0.04", "--halfedges", "-o", os.path.join(tmp, "no.ply"))
    check(r.returncode != 0 and "dual" in r.stderr, f"--halfedges with another method is refused: {r.stderr.strip()!r}")

    r = run("extract", "torus:20", "--iso", "0.04", "--method", "dual", "--no-weld", "-o", os.path.join(tmp, "soup.ply"))
    check(r.returncode == 1 and "--no-weld" in r.stderr, f"--no-weld with dual is refused: {r.stderr.strip()!r}")

    bench_json = os.path.join(tmp, "bench-dual-halfedges.json")
    r = run("bench", "cayley:24", "--iso", "-0.012", "--method", "dual", "--halfedges", "--colors", "--repeat", "2",
            "-o", bench_json)
    if os.path.exists(bench_json):
        bench = json.load(open(bench_json))
        check(set(bench["gpu_ms"]) >= {"cells", "quads", "clear_halfedges", "halfedges", "twins", "face_colors"},
              f"bench dual --halfedges --colors times the halfedge and colour passes: {sorted(bench['gpu_ms'])}")
    check(r.returncode == 0, f"bench dual --halfedges --colors runs: {r.stderr.strip()}")
finish()
