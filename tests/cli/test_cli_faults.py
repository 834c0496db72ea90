#!/usr/bin/env python3
"""Device faults (issue 21), injected through core/fault_injection.h at every
call site in turn: ISOSCOPE_INJECT_FAULT=allocate:N (vkAllocateMemory:
VK_ERROR_OUT_OF_DEVICE_MEMORY), submit:N and wait:N (VK_ERROR_DEVICE_LOST),
N from 1 until the command succeeds, so each allocation and submission of
each command fails once. Every failure must be one clear line and exit 1,
with validation on and silent (a clean shutdown: nothing leaked, nothing
destroyed while in use), no output file left. And no Vulkan driver at all is
one clear line on every GPU command."""
import os
import subprocess
import tempfile

from cli_support import BIN, check, finish


def run(args, cwd, env):
    return subprocess.run([BIN, *args], capture_output=True, text=True, errors="replace", timeout=120, cwd=cwd,
                          env={**os.environ, **env})


FAST = ["--repeat", "1", "--warmup", "0", "--warmup-ms", "0"]
COMMANDS = {
    "extract block": ["extract", "sphere:12", "--iso", "0.5", "--method", "block", "-o", "out.ply"],
    "extract scan": ["extract", "sphere:12", "--iso", "0.5", "--method", "scan", "-o", "out.ply"],
    "extract histopyramid": ["extract", "sphere:12", "--iso", "0.5", "--method", "histopyramid", "-o", "out.ply"],
    "render block": ["render", "sphere:12", "--iso", "0.5", "--method", "block", "--size", "16x16", "-o", "out.png"],
    "bench-scan": ["bench-scan", "--count", "1000", *FAST, "-o", "out.json"],
}
# The raycast commands: their IsoRaycaster set-up submits too (brick ranges,
# the far-depth placeholder), so every site is failed there as well.
RAYCAST = {
    "render iso-warp + mesh": ["render", "sphere:12", "--iso", "0.5", "--mode", "iso-warp", "--mesh-iso", "0.3",
                               "--method", "scan", "--size", "16x16", "-o", "out.png"],
    "bench-raycast": ["bench-raycast", "sphere:8", "--iso", "0.5", "--size", "8x8", "--sweep", "360", "--modes",
                      "iso-standard", *FAST, "-o", "out.json"],
}
EXPECTED = {"allocate": "out of memory", "submit": "GPU was lost", "wait": "GPU was lost"}

with tempfile.TemporaryDirectory(dir=os.environ.get("ISOSCOPE_TEST_TMP")) as tmp:
    for what, args, sites in [(what, args, EXPECTED) for what, args in {**COMMANDS, **RAYCAST}.items()]:
        for site, words in sites.items():
            bad, calls = [], 0
            for n in range(1, 400):
                folder = tempfile.mkdtemp(dir=tmp)
                r = run(args, folder, {"ISOSCOPE_INJECT_FAULT": f"{site}:{n}", "ISOSCOPE_VALIDATION": "1"})
                if r.returncode == 0:
                    calls = n - 1
                    break
                lines = [line for line in r.stderr.splitlines() if line.strip() and
                         not line.startswith("bench-scan: timed")]
                if not (r.returncode == 1 and len(lines) == 1 and words in lines[0] and "validation" not in r.stderr
                        and "internal error" not in r.stderr and os.listdir(folder) == []):
                    bad.append(f"{site}:{n}: rc={r.returncode} files={os.listdir(folder)} {r.stderr.strip()[:300]!r}")
            check(calls > 0 and not bad, f"{what}: each of its {calls} {site} calls failed in turn gives one line "
                  f"('{words}'), exit 1, a clean shutdown and no file: {bad[:3]}")

    # No Vulkan driver at all.
    nothing = {"VK_ICD_FILENAMES": "/nonexistent.json", "VK_DRIVER_FILES": "/nonexistent.json"}
    for what, args in [("info", ["info"]), *COMMANDS.items(), *RAYCAST.items(),
                       ("bench", ["bench", "sphere:8", "--iso", "0.5", "-o", "x.json"])]:
        folder = tempfile.mkdtemp(dir=tmp)
        r = run(args, folder, nothing)
        lines = [line for line in r.stderr.splitlines() if line.strip()]
        check(r.returncode == 1 and len(lines) == 1 and "Vulkan" in lines[0] and os.listdir(folder) == [],
              f"{what} without a Vulkan driver: one line, exit 1: {r.stderr.strip()!r}")

    r = run(["extract", "sphere:8", "--iso", "0.5", "--method", "block"], tmp, {"ISOSCOPE_INJECT_FAULT": "explode:1"})
    check(r.returncode == 1 and "ISOSCOPE_INJECT_FAULT" in r.stderr, f"a malformed fault plan is named: {r.stderr.strip()!r}")

finish()
