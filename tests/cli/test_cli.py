#!/usr/bin/env python3
"""The isoscope command line: help everywhere, one-line usage errors with exit
code 2, clear errors for bad input, and outputs that hold what they claim."""
import json
import os
import subprocess
import sys
import tempfile

BIN = os.environ.get("ISOSCOPE_BIN", "")
if not os.path.exists(BIN):
    print(f"skipped: isoscope binary not found at '{BIN}'")
    sys.exit(77)

failures = []


def run(*args):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=300)


def run_env(extra, *args):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=300, env={**os.environ, **extra})


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


for command in [[], ["info"], ["volinfo"], ["convert"], ["extract"], ["meshcheck"]]:
    r = run(*command, "--help")
    check(r.returncode == 0 and "Usage" in r.stdout, f"`isoscope {' '.join(command)} --help` prints usage, exit 0")

for args, why in [([], "no subcommand"),
                  (["extract"], "missing VOLUME and --iso"),
                  (["extract", "sphere:8"], "missing --iso"),
                  (["extract", "sphere:8", "--iso", "abc"], "non-numeric --iso"),
                  (["extract", "sphere:8", "--iso", "0.5", "--method", "nonsense"], "unknown method"),
                  (["extract", "sphere:8", "--iso", "0.5", "--repeat", "0"], "zero repeats"),
                  (["volinfo", "sphere:8", "--bogus"], "unknown option"),
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

sys.exit(1 if failures else 0)
