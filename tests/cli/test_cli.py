#!/usr/bin/env python3
"""The isoscope command line: help everywhere, one-line usage errors with exit
code 2, clear errors for bad input, and outputs that hold what they claim."""
import json
import os
import subprocess
import tempfile

from cli_support import BIN, check, finish, read_png


def run(*args):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=300)


def run_env(extra, *args):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=300, env={**os.environ, **extra})


for command in [[], ["info"], ["volinfo"], ["convert"], ["extract"], ["meshcheck"], ["render"], ["bench"],
                ["bench-scan"], ["bench-raycast"]]:
    r = run(*command, "--help")
    check(r.returncode == 0 and "Usage" in r.stdout, f"`isoscope {' '.join(command)} --help` prints usage, exit 0")

for args, why in [([], "no subcommand"),
                  (["extract"], "missing VOLUME and --iso"),
                  (["extract", "sphere:8"], "missing --iso"),
                  (["extract", "sphere:8", "--iso", "abc"], "non-numeric --iso"),
                  (["extract", "sphere:8", "--iso", "0.5", "--method", "nonsense"], "unknown method"),
                  (["extract", "sphere:8", "--iso", "0.5", "--repeat", "0"], "zero repeats"),
                  (["volinfo", "sphere:8", "--bogus"], "unknown option"),
                  (["render", "sphere:8", "--iso", "0.5"], "render without -o"),
                  (["render", "sphere:8", "--iso", "0.5", "-o", "x.png", "--size", "0x10"], "zero image width"),
                  (["render", "sphere:8", "--iso", "0.5", "-o", "x.png", "--size", "64"], "size without height"),
                  (["render", "sphere:8", "--iso", "0.5", "-o", "x.png", "--camera", "30"], "camera without elevation"),
                  (["bench-scan"], "bench-scan without --count"),
                  (["bench-scan", "--count", "100", "--components", "3"], "three components"),
                  (["render", "sphere:8", "--iso", "0.5", "-o", "x.png", "--mode", "iso-fast"], "unknown raycast mode"),
                  (["render", "sphere:8", "--iso", "0.5", "-o", "x.png", "--mode", "iso-warp", "--step", "0"], "zero step"),
                  (["bench-raycast", "sphere:8"], "bench-raycast without --iso"),
                  (["bench-raycast", "sphere:8", "--iso", "0.5", "--modes", "iso-slow"], "unknown bench mode"),
                  (["frobnicate"], "unknown subcommand")]:
    r = run(*args)
    lines = [l for l in r.stderr.splitlines() if l.strip()]
    check(r.returncode == 2 and len(lines) == 1, f"usage error ({why}) gives one line and exit 2: "
          f"rc={r.returncode} stderr={r.stderr.strip()!r}")

with tempfile.TemporaryDirectory(dir=os.environ.get("ISOSCOPE_TEST_TMP")) as tmp:
    missing = os.path.join(tmp, "nowhere.nrrd")
    r = run("volinfo", missing)
    check(r.returncode == 1 and "nowhere.nrrd" in r.stderr, f"a missing file is named in the error: {r.stderr.strip()!r}")

    truncated = os.path.join(tmp, "cut_4x4x4_uint8.raw")
    with open(truncated, "wb") as f:
        f.write(b"\0" * 63)
    r = run("volinfo", truncated)
    check(r.returncode == 1 and "cut_4x4x4_uint8.raw" in r.stderr, f"a truncated raw file is refused: {r.stderr.strip()!r}")

    r = run("volinfo", "sphere:16", "--json")
    info = json.loads(r.stdout) if r.returncode == 0 else {}
    check(info.get("dims") == [16, 16, 16] and info.get("type") == "float32", "volinfo --json gives dims and type")
    check(abs(info.get("max", 0) - 3 ** 0.5) < 1e-6 and info.get("min", 1) > 0, "volinfo min/max of sphere:16")

    ply, stats_path = os.path.join(tmp, "s.ply"), os.path.join(tmp, "s.json")
    r = run("extract", "sphere:24", "--iso", "0.6", "--method", "cpu", "-o", ply, "--stats", stats_path, "--repeat", "2")
    check(r.returncode == 0, f"extract runs: {r.stderr.strip()}")
    stats = json.load(open(stats_path)) if r.returncode == 0 else {}
    for key in ["method", "device", "subgroup_size", "dims", "iso", "vertices", "triangles", "gpu_ms",
                "total_gpu_ms", "aux_device_bytes", "peak_device_bytes"]:
        check(key in stats, f"stats JSON has {key}")
    check(stats.get("triangles", 0) > 0 and stats.get("dims") == [24, 24, 24], "stats count triangles of the right volume")

    r = run("meshcheck", ply, "--json")
    report = json.loads(r.stdout) if r.returncode == 0 else {}
    check(report.get("euler_characteristic") == 2 and report.get("boundary_edges") == 0,
          f"meshcheck of the sphere: Euler 2, closed ({report})")
    check(report.get("faces") == stats.get("triangles"), "meshcheck counts the faces extract wrote")

    obj = os.path.join(tmp, "s.obj")
    r = run("extract", "sphere:24", "--iso", "0.6", "-o", obj)
    r2 = run("meshcheck", obj, "--json")
    check(r2.returncode == 0 and json.loads(r2.stdout).get("faces") == stats.get("triangles"), "OBJ output reads back")

    png = os.path.join(tmp, "sphere.png")
    r = run("render", "sphere:24", "--iso", "0.6", "--size", "96x64", "--camera", "45,30", "-o", png)
    check(r.returncode == 0 and os.path.exists(png), f"render writes a PNG: {r.stderr.strip()}")
    if os.path.exists(png):
        width, height, rows = read_png(png)
        check((width, height) == (96, 64), f"the PNG has the asked size: {width}x{height}")
        background = rows[0][0:4]
        covered = sum(1 for row in rows for x in range(width) if row[4 * x:4 * x + 4] != background)
        check(0.02 * width * height < covered < 0.9 * width * height, f"the PNG is not blank: {covered} pixels drawn")
        check(rows[height // 2][4 * (width // 2):4 * (width // 2) + 4] != background, "the sphere is in the middle")
    ortho = os.path.join(tmp, "ortho.png")
    r = run("render", "torus:32", "--iso", "0.04", "--ortho", "--camera", "0,90,5", "--size", "48x48", "-o", ortho)
    check(r.returncode == 0 and read_png(ortho)[0] == 48, f"render --ortho with a distance works: {r.stderr.strip()}")
    r = run("render", "sphere:16", "--iso", "0.5", "-o", os.path.join(tmp, "no", "such", "folder.png"))
    check(r.returncode == 1 and "folder.png" in r.stderr, f"an unwritable PNG path is named: {r.stderr.strip()!r}")

    scan_json = os.path.join(tmp, "scan.json")
    r = run("bench-scan", "--count", "10007", "--components", "2", "--repeat", "3", "--warmup", "1", "-o", scan_json)
    check(r.returncode == 0 and os.path.exists(scan_json), f"bench-scan runs and writes its JSON: {r.stderr.strip()}")
    if os.path.exists(scan_json):
        bench = json.load(open(scan_json))
        check(bench.get("count") == 10007 and bench.get("components") == 2 and bench.get("verified") is True,
              "bench-scan reports what it scanned, verified")
        check(bench.get("bytes_moved") == 2 * 10007 * 8, f"bench-scan floor bytes: read + write once: {bench.get('bytes_moved')}")
        check(all(bench.get(key, 0) > 0 for key in ["ms", "copy_ms", "elements_per_second", "floor_ms",
                                                     "fraction_of_bandwidth", "ratio_to_copy"]),
              "bench-scan times the scan and the copy")
        check(abs(bench["fraction_of_bandwidth"] - bench["floor_ms"] / bench["ms"]) < 1e-9 and
              abs(bench["ratio_to_copy"] - bench["ms"] / bench["copy_ms"]) < 1e-9,
              "bench-scan fractions follow from its timings")
        check(bench.get("shader_copy_ms", 0) > 0 and bench.get("shader_copy_bytes") == 10007 * 8 // 16 * 16 and
              abs(bench["ratio_to_shader_copy"] - bench["ms"] / bench["shader_copy_ms"]) < 1e-9,
              f"bench-scan times a shader copy of the whole 16-byte vectors: {bench.get('shader_copy_bytes')}")

    for method in ["block", "scan", "histopyramid"]:
        bench_json = os.path.join(tmp, f"bench-{method}.json")
        r = run("bench", "cayley:24", "--iso", "-0.012", "--method", method, "--repeat", "3", "--warmup", "1",
                "-o", bench_json)
        check(r.returncode == 0 and os.path.exists(bench_json), f"bench --method {method} writes JSON: {r.stderr.strip()}")
        if os.path.exists(bench_json):
            bench = json.load(open(bench_json))
            check(bench["method"] == method and bench["repeat"] == 3 and bench["warmup"] == 1 and bench["stored"],
                  f"bench {method} reports its settings")
            check(bench["triangles"] > 0 and bench["total_gpu_ms"] > 0 and len(bench["gpu_ms"]) >= 3 and
                  all(ms > 0 for ms in bench["gpu_ms"].values()), f"bench {method} times every pass: {bench['gpu_ms']}")
            floor_bytes = 24 ** 3 * 4 + bench["vertices"] * 24 + bench["triangles"] * 12
            check(abs(bench["floor_ms"] - floor_bytes / 3.09e12 * 1e3) < 1e-9,
                  f"bench {method} floor: volume read once, mesh written once at 3.09 TB/s")
            check(0 < bench["aux_device_bytes"] < bench["peak_device_bytes"], f"bench {method} reports memory")
    static_json = os.path.join(tmp, "bench-static.json")
    r = run("bench", "cayley:24", "--iso", "-0.012", "--static-volume", "--repeat", "2", "-o", static_json)
    if r.returncode == 0:
        bench = json.load(open(static_json))
        check("min_max" not in bench["gpu_ms"] and bench["work"]["listed_blocks"] >= bench["work"]["blocks_with_geometry"] > 0,
              "bench --static-volume reuses the block ranges and reports the listed blocks")
    check(r.returncode == 0, f"bench --static-volume runs: {r.stderr.strip()}")
    stats_json = os.path.join(tmp, "bench-pipelines.json")
    r = run("bench", "cayley:24", "--iso", "-0.012", "--pipeline-stats", "--repeat", "2", "-o", stats_json)
    check(r.returncode == 0, f"bench --pipeline-stats runs: {r.stderr.strip()}")
    if r.returncode == 0:
        pipelines = json.load(open(stats_json)).get("pipelines")
        # lavapipe has no VK_KHR_pipeline_executable_properties: an empty list there.
        check(isinstance(pipelines, list) and
              all(p["program"].startswith("extract/") and int(p["statistics"]["workgroup size"]) > 0 for p in pipelines),
              f"bench --pipeline-stats lists the method's pipelines, or none where the driver cannot: {pipelines}")
    r = run("bench", "cayley:24", "--iso", "0", "--method", "cpu")
    check(r.returncode == 2 and "GPU methods" in r.stderr, f"bench refuses the CPU method (a usage error): {r.stderr.strip()!r}")

    # Raycasting: each mode draws the surface where the raster pass draws it.
    mesh_png = os.path.join(tmp, "mesh.png")
    run("render", "sphere:24", "--iso", "0.6", "--size", "64x64", "-o", mesh_png)
    mesh_rows = read_png(mesh_png)[2] if os.path.exists(mesh_png) else []
    for mode in ["iso-standard", "iso-warp", "iso-auto"]:
        ray_png = os.path.join(tmp, f"{mode}.png")
        r = run("render", "sphere:24", "--iso", "0.6", "--size", "64x64", "--mode", mode, "-o", ray_png)
        check(r.returncode == 0 and os.path.exists(ray_png), f"render --mode {mode} writes a PNG: {r.stderr.strip()}")
        if os.path.exists(ray_png) and mesh_rows:
            rows = read_png(ray_png)[2]
            background = rows[0][0:4]
            ray_mask = [row[4 * x:4 * x + 4] != background for row in rows for x in range(64)]
            mesh_mask = [row[4 * x:4 * x + 4] != background for row in mesh_rows for x in range(64)]
            both = sum(a and b for a, b in zip(ray_mask, mesh_mask))
            either = sum(a or b for a, b in zip(ray_mask, mesh_mask))
            check(either > 200 and both / either > 0.95,
                  f"render --mode {mode} covers the mesh's pixels: IoU {both}/{either}")
            check(f"{mode} (" in r.stdout and "pixels hit" in r.stdout, f"render --mode {mode} says what ran: {r.stdout.strip()}")
    composite = os.path.join(tmp, "composite.png")
    r = run("render", "sphere:24", "--iso", "0.9", "--mesh-iso", "0.5", "--method", "block", "--mode", "iso-warp",
            "--size", "48x48", "-o", composite)
    check(r.returncode == 0 and "triangles" in r.stdout, f"render --mesh-iso composites a mesh: {r.stdout.strip()} {r.stderr.strip()}")
    r = run("render", "sphere:8", "--iso", "0.5", "--mesh-iso", "0.3", "-o", composite)
    check(r.returncode == 2 and "--mode" in r.stderr, f"--mesh-iso without a raycast mode is a usage error: {r.stderr.strip()!r}")
    ray_json = os.path.join(tmp, "raycast.json")
    r = run("bench-raycast", "sphere:16", "--iso", "0.6", "--size", "24x16", "--sweep", "90", "--repeat", "2",
            "--warmup", "1", "-o", ray_json)
    check(r.returncode == 0 and os.path.exists(ray_json), f"bench-raycast writes JSON: {r.stderr.strip()}")
    if os.path.exists(ray_json):
        bench = json.load(open(ray_json))
        check([e["theta_deg"] for e in bench["sweep"]] == [0, 90, 180, 270], "bench-raycast sweeps 4 directions at 90°")
        check(all(e[m] > 0 for e in bench["sweep"] for m in ["iso-standard", "iso-warp", "iso-auto"]) and
              all(e["auto_choice"] in ["iso-standard", "iso-warp"] for e in bench["sweep"]),
              "bench-raycast times every mode in every direction and says what iso-auto chose")
        check(abs(bench["floor_ms"] - 24 * 16 * 8 / 3.09e12 * 1e3) < 1e-12, "bench-raycast floor: the image written once")
        s = bench["summary"]["iso-standard"]
        check(s["min"] <= s["median"] <= s["max"] and len(bench["cost_model"]["warp_ms"]) == 21 and min(bench["cost_model"]["warp_ms"]) > 0,
              "bench-raycast summarizes the sweep and reports the calibrated model")

    # --method auto: the measured fastest method the device runs, reported with the reason.
    r = run("extract", "sphere:24", "--iso", "0.5", "--method", "auto", "--stats", "-")
    if r.returncode == 0:
        stats = json.loads(r.stdout)
        check(stats["method"] in ["block", "scan"] and "fastest" in (stats["method_choice"] or "") or
              stats["method"] == "scan", f"--method auto reports its choice: {stats['method']}, {stats['method_choice']}")
        named = json.loads(run("extract", "sphere:24", "--iso", "0.5", "--method", stats["method"], "--stats", "-").stdout)
        check(named["triangles"] == stats["triangles"] and named["method_choice"] is None,
              "--method auto gives the chosen method's mesh; a named method has no choice to report")
    else:
        check("Vulkan" in r.stderr, f"--method auto without a device says so: {r.stderr.strip()!r}")

    r = run("info", "--json")
    if r.returncode == 0:
        device = json.loads(r.stdout)
        check(device["device"]["subgroup"]["size"] >= 1, "info --json reports the subgroup size")
        check(device["validation"] is False, "validation is off unless asked for")
        chosen = device["devices"][device["chosen"]]
        # ISOSCOPE_DEVICE picks by index and by a part of the name (any case).
        for selector in [str(chosen["index"]), chosen["name"].split()[0].upper()]:
            r2 = run_env({"ISOSCOPE_DEVICE": selector}, "info", "--json")
            check(r2.returncode == 0 and json.loads(r2.stdout)["chosen"] == chosen["index"],
                  f"ISOSCOPE_DEVICE={selector} chooses device {chosen['index']}")
        r2 = run_env({"ISOSCOPE_DEVICE": "no-such-gpu"}, "info")
        check(r2.returncode == 1 and "no-such-gpu" in r2.stderr, f"an unknown ISOSCOPE_DEVICE is named: {r2.stderr.strip()!r}")
        r2 = run_env({"ISOSCOPE_VALIDATION": "1"}, "info", "--json")
        check(r2.returncode == 0 and json.loads(r2.stdout)["validation"] is True and "validation" not in r2.stderr,
              "ISOSCOPE_VALIDATION=1 turns validation on, and `info` itself raises no message")
    else:
        check("Vulkan" in r.stderr, f"info without a device says so: {r.stderr.strip()!r}")

finish()
