"""isoscope-viewer in a real X window (Xvfb) on lavapipe at subgroup sizes 4
and 8, validation and synchronization validation on (any message fails):

- a scripted isovalue sweep over 100 frames, resizing the window twice on
  the way, ends with the triangle and vertex counts the viewer shows equal
  to `isoscope extract`'s for the final isovalue;
- its screenshot (UI included) matches the viewer's headless render of the
  same view (PSNR >= 35 dB right of the panel), and the panel is drawn;
- every mode and method draws with no validation message, dual's quads
  included: the quads and vertices shown equal `isoscope extract --method
  dual`'s;
- the clip box hides the half of the volume it cuts away and leaves the
  other half's pixels as they were, in DVR and the isosurface raycast;
- transfer-function edits (points added, recoloured, removed, as the
  editor makes them) change the DVR image, and the file the editor saves
  reproduces it exactly when read back with --tf;
- iso-auto calibrates, draws what the mapping it reports draws, and the
  device-memory line counts isoscope's allocations; in a window it
  calibrates between frames, which go on coming meanwhile;
- a volume opened in the window (a 160^3 gzipped NRRD) loads on a worker
  thread while the window goes on drawing, then shows isoscope extract's
  triangle count for it; a file that does not open leaves the window running;
  the volume named on the command line loads so too, the window drawing
  frames (with the progress) before it is in; one that does not open ends
  the viewer with its message;
- where ISOSCOPE_DATASETS holds the engine CT, a DVR of it with the CT
  preset is drawn (docs/images/viewer.png is that screenshot, copied from
  ISOSCOPE_TEST_TMP/viewer-engine-ct.png).

Exits 77 (ctest's skip) without xvfb-run or the viewer binary."""
import gzip
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np
from skimage.io import imread

VIEWER = os.environ.get("ISOSCOPE_VIEWER", "")
CLI = os.environ.get("ISOSCOPE_BIN", "")
VOLUME, FINAL_ISO, SIZE = "sphere:48", 0.7, (800, 450)
PANEL_RIGHT = 360  # the panel spans x 8..348 (panels.cpp); compared pixels lie right of it

failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        failures.append(what)


def lavapipe_env(subgroup_size):
    env = dict(os.environ, LP_NATIVE_VECTOR_WIDTH=str(subgroup_size * 32))
    if subgroup_size == 4:
        env["GALLIUM_OVERRIDE_CPU_CAPS"] = "avx"  # see tests/CMakeLists.txt: AVX-512 JIT crash at width 128
    return env


def viewer(env, *args, windowed=True):
    command = [VIEWER, VOLUME, "--validation", "--camera", "30,20", *args]
    if windowed:
        command = ["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24"] + command + ["--no-vsync"]
    r = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    if r.returncode != 0 or "validation" in r.stderr:
        print(r.stdout + r.stderr)
    return r


def sweep_script(path):
    """100 frames: up from 0.35 past the final isovalue and back down to it;
    the window shrinks at frame 30 and grows back at frame 60."""
    lines = []
    for i in range(100):
        t = i / 99
        iso = 0.35 + 0.9 * math.sin(math.pi * t) if t < 0.5 else FINAL_ISO + (1.25 - FINAL_ISO) * (1 - t) * 2
        actions = [f"iso {FINAL_ISO if i == 99 else iso:.6f}"]
        if i == 30:
            actions.append("resize 640x400")
        if i == 60:
            actions.append(f"resize {SIZE[0]}x{SIZE[1]}")
        lines.append("; ".join(actions))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def extract_counts(env, tmp, subgroup_size, *options, method="block"):
    """isoscope extract's faces (triangles, or quads for dual) and vertices at FINAL_ISO."""
    name = f"extract-{subgroup_size}-{method}{''.join(options)}"
    stats = os.path.join(tmp, name + ".json")
    r = subprocess.run([CLI, "extract", VOLUME, "--iso", str(FINAL_ISO), "--method", method, *options, "-o",
                        os.path.join(tmp, name + ".ply"), "--stats", stats],
                       env=env, capture_output=True, text=True)
    check(r.returncode == 0, f"isoscope extract runs: {r.stderr.strip()[-200:]}")
    data = json.load(open(stats)) if r.returncode == 0 else {}
    return data.get("quads" if method == "dual" else "triangles"), data.get("vertices")


def psnr(a, b):
    mse = np.mean((a.astype(float) - b.astype(float)) ** 2)
    return float("inf") if mse == 0 else 10 * math.log10(255.0 ** 2 / mse)


def check_size(subgroup_size, tmp):
    env = lavapipe_env(subgroup_size)
    tag = f"subgroup size {subgroup_size}"
    script = os.path.join(tmp, "sweep.txt")
    sweep_script(script)
    shot, ref = os.path.join(tmp, f"window-{subgroup_size}.png"), os.path.join(tmp, f"headless-{subgroup_size}.png")

    r = viewer(env, "--size", f"{SIZE[0]}x{SIZE[1]}", "--frames", "104", "--script", script, "--screenshot", shot)
    check(r.returncode == 0 and "validation" not in r.stderr, f"{tag}: 104 windowed frames with a scripted sweep, no validation message")
    check(f"subgroup size {subgroup_size}" in r.stdout, f"{tag}: the viewer ran at that subgroup size")
    resizes = re.findall(r"resized to (\d+)x(\d+)", r.stdout)
    check(("640", "400") in resizes and resizes[-1:] == [(str(SIZE[0]), str(SIZE[1]))],
          f"{tag}: the window was resized to 640x400 and back while drawing ({resizes})")
    shown = re.search(r"isovalue ([0-9.eE+-]+), (\d+) triangles, (\d+) vertices", r.stdout)
    triangles, vertices = extract_counts(env, tmp, subgroup_size)
    check(shown is not None and abs(float(shown.group(1)) - FINAL_ISO) < 1e-6, f"{tag}: the last frame is at isovalue {FINAL_ISO}")
    check(shown is not None and int(shown.group(2)) == triangles and int(shown.group(3)) == vertices,
          f"{tag}: triangles and vertices shown ({shown.groups()[1:] if shown else None}) equal isoscope extract's "
          f"({triangles}, {vertices})")

    h = viewer(env, "--headless", "--iso", str(FINAL_ISO), "--size", f"{SIZE[0]}x{SIZE[1]}", "--frames", "3",
               "--screenshot", ref, windowed=False)
    check(h.returncode == 0 and "validation" not in h.stderr, f"{tag}: the headless render runs, no validation message")
    if r.returncode != 0 or h.returncode != 0:
        return
    window, headless = imread(shot)[:, :, :3], imread(ref)[:, :, :3]
    check(window.shape == headless.shape == (SIZE[1], SIZE[0], 3), f"{tag}: both images are {SIZE[0]}x{SIZE[1]}")
    background = headless[0, 0].astype(int)
    surface = np.any(np.abs(headless[:, PANEL_RIGHT:].astype(int) - background) > 8, axis=2)
    check(surface.mean() > 0.05, f"{tag}: the compared region holds the surface ({surface.mean():.1%} of its pixels)")
    value = psnr(window[:, PANEL_RIGHT:], headless[:, PANEL_RIGHT:])
    check(value >= 35.0, f"{tag}: the window matches the headless render right of the panel: PSNR {value:.1f} dB >= 35")
    title = np.any(np.abs(window[10:26, 12:340].astype(int) - background) > 8, axis=2).mean()
    under = np.any(np.abs(headless[10:26, 12:340].astype(int) - background) > 8, axis=2).mean()
    check(title > 0.9 and under < 0.05, f"{tag}: the panel's title bar is drawn ({title:.0%} not background; "
          f"{under:.0%} in the headless render)")

    modes = os.path.join(tmp, "modes.txt")
    with open(modes, "w") as f:
        f.write("mode iso-standard\n\nmode iso-warp\n\nmode dvr\n\nmode mesh+dvr\n\nmethod scan\n\n"
                f"method histopyramid\n\nmethod dual\n\nmode mesh\n\nmethod block; weld off; iso {FINAL_ISO}\n")
    m = viewer(env, "--size", "320x240", "--frames", "20", "--script", modes)
    check(m.returncode == 0 and "validation" not in m.stderr and "method block unwelded" in m.stdout,
          f"{tag}: every mode and method, then block unwelded, draw in the window, no validation message")
    shown = re.search(r"isovalue ([0-9.eE+-]+), (\d+) triangles, (\d+) vertices", m.stdout)
    triangles, vertices = extract_counts(env, tmp, subgroup_size, "--no-weld")
    check(shown is not None and (int(shown.group(2)), int(shown.group(3))) == (triangles, vertices),
          f"{tag}: weld off shows extract --no-weld's triangles and vertices ({shown.groups()[1:] if shown else None} "
          f"and {triangles, vertices})")

    # Dual's quads drawn in mesh mode: the counts shown are isoscope extract --method dual's.
    d = viewer(env, "--size", "320x240", "--frames", "4", "--method", "dual", "--iso", str(FINAL_ISO))
    shown = re.search(r"method dual, isovalue ([0-9.eE+-]+), (\d+) quads, (\d+) vertices", d.stdout)
    quads, vertices = extract_counts(env, tmp, subgroup_size, method="dual")
    check(d.returncode == 0 and "validation" not in d.stderr and shown is not None and
          (int(shown.group(2)), int(shown.group(3))) == (quads, vertices),
          f"{tag}: dual's quad mesh drawn in the window, no validation message, its quads and vertices "
          f"({shown.groups()[1:] if shown else d.stdout[-200:]}) those of isoscope extract --method dual "
          f"({quads}, {vertices})")


def headless(env, tmp, name, *args, script_lines=None, size="160x120"):
    """A headless render's pixels (None when it failed) and its output."""
    shot = os.path.join(tmp, name + ".png")
    extra = []
    if script_lines is not None:
        script = os.path.join(tmp, name + ".txt")
        with open(script, "w") as f:
            f.write("\n".join(script_lines) + "\n")
        extra = ["--script", script]
    r = viewer(env, "--headless", "--size", size, "--screenshot", shot, *args, *extra, windowed=False)
    ok = r.returncode == 0 and "validation" not in r.stderr
    check(ok, f"{name}: headless render, no validation message {r.stderr.strip()[-300:] if not ok else ''}")
    return (imread(shot)[:, :, :3].astype(int) if ok else None), r.stdout


def check_clip(env, tmp, mode):
    """Looking along -y (camera 90,0) image columns left of the centre see
    x > 0, right of it x < 0; the box keeps x <= 0 of sphere:48 ([-1, 1]^3)."""
    args = ["--mode", mode, "--iso", "0.9", "--camera", "90,0", "--frames", "3"]
    whole, _ = headless(env, tmp, f"clip-{mode}-whole", *args)
    clipped, _ = headless(env, tmp, f"clip-{mode}-half", *args, script_lines=["clip -1 -1 -1 0 1 1"])
    if whole is None or clipped is None:
        return
    width = whole.shape[1]
    left, right = slice(0, width // 2 - 3), slice(width // 2 + 3, width)
    background = whole[0, 0]
    drawn = np.any(whole[:, left] != background, axis=2).mean()
    gone = np.all(clipped[:, left] == background, axis=2).mean()
    kept = np.all(clipped[:, right] == whole[:, right], axis=2).mean()
    check(drawn > 0.05 and gone == 1.0 and kept == 1.0,
          f"{mode}: the clip box hides the half it cuts away (volume on {drawn:.0%} of it before, "
          f"background on {gone:.1%} after) and leaves {kept:.1%} of the other half's pixels as they were")


def check_transfer_function_editing(env, tmp):
    saved = os.path.join(tmp, "edited-tf.json")
    base = ["--mode", "dvr", "--tf", "grayscale", "--frames", "3"]
    preset, _ = headless(env, tmp, "tf-preset", *base)
    edits = "tf-opacity 0.6 0.9; tf-color 0.6 1 0.2 0; tf-color 1.2 0 0.4 1"
    edited, out = headless(env, tmp, "tf-edited", *base, script_lines=[edits + f"; tf-save {saved}"])
    check(f"transfer function saved: {saved}" in out and os.path.exists(saved), "the editor's points are saved")
    reread, _ = headless(env, tmp, "tf-reread", "--mode", "dvr", "--tf", saved, "--frames", "3")
    undone, _ = headless(env, tmp, "tf-undone", *base, script_lines=[edits, "tf-remove-opacity 0.6; "
                                                                     "tf-remove-color 0.6; tf-remove-color 1.2"])
    if preset is None or edited is None or reread is None or undone is None:
        return
    changed = np.any(edited != preset, axis=2).mean()
    check(changed > 0.05, f"the edited transfer function changes {changed:.0%} of the DVR image")
    check(np.array_equal(reread, edited), "--tf with the saved file draws exactly what the editor drew")
    check(np.array_equal(undone, preset), "removing the added points draws the preset's image again")


def check_auto_and_memory(env, tmp):
    auto, out = headless(env, tmp, "iso-auto", "--mode", "iso-auto", "--iso", "0.5", "--frames", "3")
    ran = re.search(r"iso-auto: the last frame ran (iso-standard|iso-warp)", out)
    check(ran is not None, f"iso-auto calibrated and reports the mapping it ran ({ran.group(1) if ran else out[-200:]})")
    if ran and auto is not None:
        fixed, _ = headless(env, tmp, "iso-fixed", "--mode", ran.group(1), "--iso", "0.5", "--frames", "3")
        check(fixed is not None and np.array_equal(auto, fixed), f"iso-auto draws what {ran.group(1)} draws")
    memory = re.search(r"memory: isoscope ([0-9.]+) MiB \(peak ([0-9.]+) MiB\)", out)
    check(memory is not None and 0.0 < float(memory.group(1)) <= float(memory.group(2)),
          f"the device-memory line counts isoscope's allocations ({memory.group(0) if memory else out[-200:]})")

    # In a window the calibration runs between frames, which go on coming (with its progress shown).
    w = viewer(env, "--mode", "iso-auto", "--iso", "0.5", "--size", "200x150", "--frames", "3")
    calibrated = re.search(r"iso-auto calibrated; (\d+) frames drawn while it calibrated", w.stdout)
    check(w.returncode == 0 and "validation" not in w.stderr and calibrated is not None and
          int(calibrated.group(1)) >= 3,
          f"in a window iso-auto calibrates while the frames go on ({calibrated.group(1) if calibrated else None} "
          f"drawn meanwhile; {w.stdout[-300:]})")
    check(re.search(r"iso-auto: the last frame ran (iso-standard|iso-warp)", w.stdout) is not None,
          "then the window's iso-auto frames run the mapping the cost model picks")


def check_dual_unwelded_refused(env, tmp):
    """Dual is always welded: weld off is refused, the dual mesh drawn on."""
    script = os.path.join(tmp, "dual-weld.txt")
    with open(script, "w") as f:
        f.write("method dual\n\nweld off\n\n")
    r = viewer(env, "--size", "320x240", "--frames", "5", "--script", script, "--iso", str(FINAL_ISO))
    check(r.returncode == 0 and "validation" not in r.stderr and
          re.search(r"method dual, isovalue [0-9.eE+-]+, \d+ quads", r.stdout) is not None,
          f"weld off with dual is refused and the welded dual mesh stays drawn ({r.stdout[-200:]}{r.stderr[-200:]})")


def write_sphere_nrrd(path, n):
    """A distance-from-the-centre field over [-1, 1]^3, gzipped: its surface at 0.9 is a sphere."""
    x = np.linspace(-1.0, 1.0, n, dtype=np.float32)
    field = np.sqrt(x[:, None, None] ** 2 + x[None, :, None] ** 2 + x[None, None, :] ** 2).astype("<f4")
    header = f"NRRD0004\ntype: float\ndimension: 3\nsizes: {n} {n} {n}\nencoding: gzip\nendian: little\n\n"
    with open(path, "wb") as f:
        f.write(header.encode() + gzip.compress(field.tobytes(), compresslevel=1))


def check_loading(env, tmp):
    volume = os.path.join(tmp, "sphere-160.nrrd")
    write_sphere_nrrd(volume, 160)
    script = os.path.join(tmp, "open.txt")
    missing = os.path.join(tmp, "no-such-volume.nrrd")
    with open(script, "w") as f:
        f.write(f"open {missing}\n\nopen {volume}\niso 0.9\n")
    r = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24", VIEWER, "sphere:32", "--validation",
                        "--no-vsync", "--size", "480x320", "--frames", "6", "--script", script],
                       env=env, capture_output=True, text=True, timeout=180)
    check(r.returncode == 0 and "validation" not in r.stderr,
          f"volumes opened in the window load on a worker thread, no validation message {r.stderr.strip()[-300:]}")
    check(f"not opened: loading {missing}" in r.stdout, "a volume that does not open is reported and the window goes on")
    opened = re.search(r"opened (" + re.escape(volume) + r"); (\d+) frames drawn while it loaded", r.stdout)
    check(opened is not None and int(opened.group(2)) >= 3,
          f"the window drew frames while the volume loaded ({opened.group(2) if opened else r.stdout[-300:]})")
    shown = re.search(r"isovalue ([0-9.eE+-]+), (\d+) triangles", r.stdout)
    stats = os.path.join(tmp, "opened.json")
    e = subprocess.run([CLI, "extract", volume, "--iso", "0.9", "--method", "block", "-o", os.path.join(tmp, "o.ply"),
                        "--stats", stats], env=env, capture_output=True, text=True)
    triangles = json.load(open(stats))["triangles"] if e.returncode == 0 else None
    check(shown is not None and int(shown.group(2)) == triangles,
          f"then the window shows the loaded volume: {shown.group(2) if shown else None} triangles at 0.9, "
          f"isoscope extract {triangles}")

    # The volume named on the command line loads on the worker too: frames (with the progress) before it is in.
    c = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24", VIEWER, volume, "--iso", "0.9",
                        "--validation", "--no-vsync", "--size", "480x320", "--frames", "3"],
                       env=env, capture_output=True, text=True, timeout=180)
    opened = re.search(r"opened (\S+); (\d+) frames drawn while it loaded", c.stdout)
    shown = re.search(r"isovalue ([0-9.eE+-]+), (\d+) triangles", c.stdout)
    check(c.returncode == 0 and "validation" not in c.stderr and opened is not None and opened.group(1) == volume
          and int(opened.group(2)) >= 3,
          f"the volume named on the command line loads while the window draws ({opened.group(2) if opened else None} "
          f"frames meanwhile; {c.stdout[-300:]}{c.stderr.strip()[-300:]})")
    check(shown is not None and int(shown.group(2)) == triangles,
          f"then the window shows it: {shown.group(2) if shown else None} triangles at 0.9, isoscope extract {triangles}")
    g = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24", VIEWER, missing, "--validation",
                        "--no-vsync", "--size", "320x240", "--frames", "3"],
                       env=env, capture_output=True, text=True, timeout=180)
    check(g.returncode == 1 and missing in g.stderr and "validation" not in g.stderr,
          f"a volume named on the command line that does not open ends the viewer with its message "
          f"(exit {g.returncode}: {g.stderr.strip()[-200:]})")


def check_features(tmp):
    env = lavapipe_env(8)
    for mode in ("dvr", "iso-standard", "iso-warp"):
        check_clip(env, tmp, mode)
    check_transfer_function_editing(env, tmp)
    check_auto_and_memory(env, tmp)
    check_dual_unwelded_refused(env, tmp)
    check_loading(env, tmp)


def check_engine_ct():
    engine = os.path.join(os.environ.get("ISOSCOPE_DATASETS", ""), "engine_256x256x128_uint8.nhdr")
    if not os.path.exists(engine):
        print(f"skipped the engine CT: {engine} not found")
        return
    out_dir = os.environ.get("ISOSCOPE_TEST_TMP", tempfile.gettempdir())
    os.makedirs(out_dir, exist_ok=True)
    shot = os.path.join(out_dir, "viewer-engine-ct.png")
    if os.path.exists(shot):
        os.remove(shot)
    command = ["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24", VIEWER, engine, "--mode", "dvr", "--tf", "ct",
               "--validation", "--no-vsync", "--frames", "4", "--size", "900x560", "--screenshot", shot]
    r = subprocess.run(command, env=lavapipe_env(8), capture_output=True, text=True, timeout=120)
    check(r.returncode == 0 and "validation" not in r.stderr, f"the engine CT in DVR with the ct preset, no validation message: "
          f"{r.stderr.strip()[-300:]}")
    if r.returncode != 0:
        return
    image = imread(shot)[:, :, :3].astype(int)
    volume = np.any(np.abs(image[:, PANEL_RIGHT:] - image[-1, -1]) > 8, axis=2).mean()
    check(0.1 < volume < 0.9, f"the engine covers {volume:.0%} of the image right of the panel ({shot})")


def check_keys_documented():
    """The keys --help lists (the help overlay's text) are the READMEs' keys."""
    r = subprocess.run([VIEWER, "--help"], capture_output=True, text=True, timeout=60)
    listed = r.stdout.split("keys in the window", 1)[-1].splitlines()[1:]
    keys = [line[:9].strip() for line in listed if line.strip()]
    check(r.returncode == 0 and len(keys) >= 8, f"--help lists the keys ({keys})")
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    table = open(os.path.join(root, "samples", "viewer", "README.md")).read().split("## Keys", 1)[-1]
    rows = [line.split("|")[1].strip() for line in table.strip().split("\n\n", 1)[0].splitlines()
            if line.startswith("|") and not line.startswith("| ---") and not line.startswith("| key")]
    check(sorted(rows) == sorted(k for k in keys if k != "drop"),
          f"samples/viewer/README.md's key table ({rows}) lists the keys --help lists ({keys})")
    readme = open(os.path.join(root, "README.md")).read()
    sentence = readme.split("after isoscope's. Keys:", 1)[-1].split("; a file dropped", 1)[0].replace(" ", "")
    missing = [k for k in keys if k not in ("mouse", "drop") and k.replace(" ", "") not in sentence]
    check(not missing, f"README.md's viewer keys name every key --help lists (missing: {missing})")


def main():
    if not shutil.which("xvfb-run"):
        print("skipped: xvfb-run not found (Debian: xvfb)")
        sys.exit(77)
    if not os.path.exists(VIEWER) or not os.path.exists(CLI):
        print(f"skipped: the viewer ({VIEWER!r}) or the CLI ({CLI!r}) is not built")
        sys.exit(77)
    check_keys_documented()
    with tempfile.TemporaryDirectory() as tmp:
        for size in (4, 8):
            check_size(size, tmp)
        check_features(tmp)
    check_engine_ct()
    print(f"{len(failures)} checks failed" if failures else "all checks passed")
    sys.exit(1 if failures else 0)


main()
