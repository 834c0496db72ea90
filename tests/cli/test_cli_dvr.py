#!/usr/bin/env python3
"""`isoscope render --mode dvr`: every mapping writes the same picture of a
synthetic field (a DVR image, not the background), transfer functions come
from presets, ParaView JSON and text files, bad transfer-function files fail
with the file and line named, and bench-raycast times the DVR mappings."""
import json
import os
import subprocess
import tempfile

from cli_support import BIN, check, finish, read_png

DATA = os.environ.get("ISOSCOPE_TEST_DATA", "")


def run(*args):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=300)


with tempfile.TemporaryDirectory() as tmp:
    images = {}
    for mapping in ["standard", "shaped", "rotated", "warp"]:
        out = os.path.join(tmp, f"{mapping}.png")
        r = run("render", "marschner-lobb:32", "--mode", "dvr", "--tf", "grayscale", "--dvr-mapping", mapping,
                "--size", "48x40", "-o", out)
        check(r.returncode == 0 and os.path.exists(out), f"dvr {mapping}: renders ({r.stderr.strip()[:200]})")
        if r.returncode == 0:
            width, height, rows = read_png(out)
            check((width, height) == (48, 40), f"dvr {mapping}: 48x40 image")
            images[mapping] = rows
            check(f"dvr ({mapping}," in r.stdout, f"dvr {mapping}: the summary names the mapping")
    if "standard" in images:
        background = images["standard"][0][:4]
        varied = sum(row[i:i + 4] != background for row in images["standard"] for i in range(0, len(row), 4))
        check(varied > 48 * 40 // 4, "dvr: the volume covers much of the image, not the background alone")
        for mapping, rows in images.items():
            worst = max(abs(a - b) for ra, rb in zip(rows, images["standard"]) for a, b in zip(ra, rb))
            check(worst <= 8, f"dvr {mapping}: within 8 levels of standard (largest difference {worst})")

    paraview = os.path.join(DATA, "transfer_functions", "paraview_preset.json")
    if os.path.exists(paraview):
        r = run("render", "marschner-lobb:24", "--mode", "dvr", "--tf", paraview, "--size", "16x16",
                "-o", os.path.join(tmp, "pv.png"))
        check(r.returncode == 0, f"dvr: a ParaView colour-map file as --tf ({r.stderr.strip()[:200]})")
    else:
        print(f"skipped: {paraview} not found (ISOSCOPE_TEST_DATA)")

    shaded, flat = os.path.join(tmp, "shaded.png"), os.path.join(tmp, "flat.png")
    run("render", "sphere:24", "--mode", "dvr", "--tf", "grayscale", "--size", "24x24", "-o", shaded)
    r = run("render", "sphere:24", "--mode", "dvr", "--tf", "grayscale", "--no-shade", "--size", "24x24", "-o", flat)
    check(r.returncode == 0 and os.path.exists(shaded) and read_png(shaded)[2] != read_png(flat)[2],
          "dvr: --no-shade renders, and differently from the shaded image")

    # A mesh of another isovalue drawn first, DVR composited over it by depth.
    plain, composite = os.path.join(tmp, "plain.png"), os.path.join(tmp, "composite.png")
    run("render", "sphere:24", "--mode", "dvr", "--tf", "grayscale", "--size", "24x24", "-o", plain)
    r = run("render", "sphere:24", "--mode", "dvr", "--tf", "grayscale", "--mesh-iso", "0.5", "--method", "block",
            "--size", "24x24", "-o", composite)
    check(r.returncode == 0 and "mesh at 0.5 by block" in r.stdout and read_png(composite)[2] != read_png(plain)[2],
          f"dvr --mesh-iso: the mesh is drawn and DVR composited over it ({r.stderr.strip()[:200]})")

    text = os.path.join(tmp, "tf.txt")
    with open(text, "w") as f:
        f.write("# value r g b a\n0 0 0 0 0\n0.5 1 0.5 0 0.2\n1 1 1 1 0.9\n")
    r = run("render", "sphere:24", "--mode", "dvr", "--tf", text, "--size", "16x16", "-o", os.path.join(tmp, "t.png"))
    check(r.returncode == 0, f"dvr: a text transfer function ({r.stderr.strip()[:200]})")

    bad = os.path.join(tmp, "bad.txt")
    with open(bad, "w") as f:
        f.write("0 0 0 0 0\n0.5 1 0.5\n")
    r = run("render", "sphere:24", "--mode", "dvr", "--tf", bad, "--size", "16x16", "-o", os.path.join(tmp, "b.png"))
    check(r.returncode != 0 and "bad.txt:2" in r.stderr, f"dvr: a bad text line is named by file and line ({r.stderr.strip()[:200]})")
    check(not os.path.exists(os.path.join(tmp, "b.png")), "dvr: no image after a bad transfer function")
    r = run("render", "sphere:24", "--mode", "dvr", "--tf", "no-such-preset", "--size", "16x16", "-o", os.path.join(tmp, "c.png"))
    check(r.returncode != 0 and "ct" in r.stderr and "grayscale" in r.stderr, "dvr: an unknown --tf lists the presets")

    out = os.path.join(tmp, "bench.json")
    r = run("bench-raycast", "sphere:24", "--modes", "dvr-standard,dvr-rotated,dvr-warp", "--size", "16x16",
            "--sweep", "90", "--repeat", "1", "--warmup", "0", "--warmup-ms", "0", "-o", out)
    check(r.returncode == 0, f"bench-raycast: DVR modes without --iso ({r.stderr.strip()[:200]})")
    if r.returncode == 0:
        j = json.load(open(out))
        check(len(j["dvr"]["sweep"]) == 4 and all("rotated" in e for e in j["dvr"]["sweep"]),
              "bench-raycast: one entry per direction for each DVR mapping")
        check(j["dvr"]["summary"]["warp"]["min"] > 0, "bench-raycast: DVR frame times from GPU timestamps")
    r = run("bench-raycast", "sphere:24", "--modes", "iso-standard", "--size", "16x16")
    check(r.returncode == 2 and "--iso" in r.stderr, "bench-raycast: the iso modes still need --iso")

finish()
