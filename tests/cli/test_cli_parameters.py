#!/usr/bin/env python3
"""Parameter validation on every command (issue 21): a number that must be
finite is finite, a count does not wrap around, a negative value where none
belongs is refused. Each refusal is a usage error: exit code 2 and one line
naming the option, the value and the allowed range, before any work (so a
`--warmup-ms nan` cannot hang a benchmark)."""
import os
import shutil
import subprocess
import tempfile

from cli_support import BIN, check, finish


TMP = tempfile.mkdtemp(dir=os.environ.get("ISOSCOPE_TEST_TMP"))


def run(args, timeout=60):
    try:
        return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=timeout, cwd=TMP)
    except subprocess.TimeoutExpired:
        return None


NON_FINITE = ["nan", "NaN", "inf", "-inf", "1e400", ""]
# What each command needs besides the option under test.
BASE = {
    "extract": ["extract", "sphere:8", "--iso", "0.5"],
    "render": ["render", "sphere:8", "--iso", "0.5", "-o", "never-written.png"],
    "bench": ["bench", "sphere:8", "--iso", "0.5"],
    "bench-raycast": ["bench-raycast", "sphere:8", "--iso", "0.5"],
    "bench-scan": ["bench-scan", "--count", "1000"],
    "convert": ["convert", "sphere:8", "-o", "never-written.nrrd"],
    "volinfo": ["volinfo", "sphere:8"],
}
ISO = {command: base[:2] + ["-o", "never-written.png"] * (command == "render") for command, base in BASE.items()
       if command in ["extract", "render", "bench", "bench-raycast"]}

cases = []  # (arguments, option named in the message, value named in the message)
for command, base in ISO.items():
    for value in NON_FINITE:
        cases.append((base + ["--iso", value], "--iso", value))
for value in NON_FINITE:
    cases.append((BASE["render"] + ["--mode", "iso-warp", "--mesh-iso", value], "--mesh-iso", value))
for camera, value in [("nan,0", "nan"), ("0,nan", "nan"), ("0,0,nan", "nan"), ("inf,0", "inf"), ("0,0,-1", "-1"),
                      ("0,0,0", "0"), ("0,95", "95"), ("0,0,1e400", "1e400")]:
    cases.append((BASE["render"] + ["--camera", camera], "--camera", value))
for command in ["render", "bench-raycast"]:
    for value in ["nan", "inf", "0", "171"]:
        cases.append((BASE[command] + ["--fov", value], "--fov", value))
    for value in ["nan", "-inf", "0", "-1"]:
        cases.append((BASE[command] + ["--step", value], "--step", value))
    for value in ["4294967297x1", "1x4294967297", "18446744073709551617x1", "-1x10", "0x10", "16385x1", "64",
                  "nanx1"]:
        cases.append((BASE[command] + ["--size", value], "--size", value))
for value in ["nan", "inf", "0", "-5", "1e400"]:
    cases.append((BASE["bench-raycast"] + ["--sweep", value], "--sweep", value))
for value in ["4294967297x1", "1025x1", "0x8"]:
    cases.append((BASE["bench-raycast"] + ["--tile", value], "--tile", value))
for option, values in [("--resample", ["4294967298", "-1", "1"]), ("--brick", ["-1", "4294967299", "2"]),
                       ("--tail-budget", ["-1", "4294967296"]), ("--tail-lookups", ["-1"]), ("--macro", ["-1"]),
                       ("--tail-cycles", ["0", "4294967297"])]:
    for value in values:
        cases.append((BASE["bench-raycast"] + [option, value], option, value))
for command in ["bench", "bench-raycast", "bench-scan"]:
    for value in ["0", "-1", "nan", "inf"]:
        cases.append((BASE[command] + ["--bandwidth", value], "--bandwidth", value))
for command in ["extract", "bench", "bench-raycast", "bench-scan"]:
    for value in ["nan", "inf", "-1", "1e400"]:
        cases.append((BASE[command] + ["--warmup-ms", value], "--warmup-ms", value))
    for value in ["0", "-1", "4294967297"]:
        cases.append((BASE[command] + ["--repeat", value], "--repeat", value))
    for value in ["-1", "4294967296"]:
        cases.append((BASE[command] + ["--warmup", value], "--warmup", value))
for command in ["extract", "bench"]:
    for value in ["8x0x4", "8x4", "abc", "4294967304x4x4", "-8x4x4", "8x4x4x4"]:
        cases.append((BASE[command] + ["--block", value], "--block", value))
    for value in ["0", "17", "-1"]:
        cases.append((BASE[command] + ["--method", "scan", "--scan-column", value], "--scan-column", value))
    for value in ["0", "1025", "-64"]:
        cases.append((BASE[command] + ["--method", "scan", "--scan-list-workgroup", value], "--scan-list-workgroup",
                      value))
for value in ["-1", "0", "18446744073709551617"]:
    cases.append((BASE["bench-scan"][:1] + ["--count", value], "--count", value))
for value in ["abc", "-256", "100"]:
    cases.append((BASE["bench-scan"] + ["--output-offset", value], "--output-offset", value))
for value in ["3", "0", "-1", "4294967297", "1.0"]:
    cases.append((BASE["bench-scan"] + ["--components", value], "--components", value))
for value in ["5", "6", "68", "0", "-4"]:  # a multiple of 4 from 4 to 64 (once exit 1 for 5 and 6)
    cases.append((BASE["bench-scan"] + ["--items", value], "--items", value))
# extract's export steps: --simplify keeps a fraction above 0, up to 1; --smooth counts iterations.
for value in NON_FINITE + ["0", "-0.5", "1.5"]:
    cases.append((BASE["extract"] + ["--simplify", value], "--simplify", value))
for value in ["-1", "1.5", "10001", "18446744073709551617", "nan"]:
    cases.append((BASE["extract"] + ["--smooth", value], "--smooth", value))
# The raw-file options of every command that reads a VOLUME.
for command in ["extract", "render", "bench", "bench-raycast", "convert", "volinfo"]:
    cases.append((BASE[command] + ["--header-bytes", "-1"], "--header-bytes", "-1"))
    cases.append((BASE[command] + ["--header-bytes", "18446744073709551616"], "--header-bytes", "18446744073709551616"))
    cases.append((BASE[command] + ["--dims", "4294967297", "1", "1"], "--dims", "4294967297"))
    cases.append((BASE[command] + ["--dims", "8", "-8", "8"], "--dims", "-8"))
    for value in ["nan", "0", "-1", "inf"]:
        cases.append((BASE[command] + ["--spacing", "1", value, "1"], "--spacing", value))

for args, option, value in cases:
    r = run(args)
    what = f"`isoscope {' '.join(repr(a) if a in ['', '-1'] or ' ' in a else a for a in args)}`"
    if r is None:
        check(False, f"{what} returns (it hung for 60 s)")
        continue
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    line = lines[0] if lines else ""
    check(r.returncode == 2 and len(lines) == 1 and option in line and f"'{value}'" in line and " to " in line and
          len(line) < 200, f"{what}: exit 2, one line naming {option}, '{value}' and the range: rc={r.returncode} "
          f"{r.stderr.strip()!r}")

# Options that contradict each other are usage errors too (once exit 1).
# --series is a DICOM UID (digits and dots), not any text.
for args, option in [(BASE["volinfo"] + ["--series", ""], "--series"),
                     (BASE["volinfo"] + ["--series", "1.2.abc"], "--series"),
                     (BASE["volinfo"] + ["--series", "1" * 65], "--series"),
                     (BASE["bench"] + ["--method", "cpu"], "--method"),
                     (BASE["bench"] + ["--uint8", "--int16"], "--uint8"),
                     (["bench", "missing_8x8x8_uint8.raw", "--iso", "0.5", "--analytic"], "--analytic"),
                     (BASE["bench"] + ["--analytic", "--uint8"], "--analytic"),
                     (BASE["render"] + ["--mesh-iso", "0.3"], "--mesh-iso")]:
    r = run(args)
    lines = [line for line in r.stderr.splitlines() if line.strip()] if r else []
    check(r is not None and r.returncode == 2 and len(lines) == 1 and option in lines[0],
          f"`isoscope {' '.join(args)}`: exit 2, one line naming {option}: {r and (r.returncode, r.stderr.strip())!r}")

# --repeat 0 once printed a 392-character line that contradicted itself
# ("not in range 2.2e-308 to 1.8e308"); the range given now is the one meant.
r = run(BASE["extract"] + ["--repeat", "0"])
check(r is not None and "from 1 to 1000000" in r.stderr, f"--repeat 0 gives the range of repeats: {r and r.stderr.strip()!r}")

# Values at the edges of the ranges are accepted (the validation is not stricter than the documentation).
for args in [["extract", "sphere:8", "--iso", "-1e30", "--repeat", "1", "--block", "1x1x1"],
             BASE["volinfo"] + ["--header-bytes", "0"],
             BASE["extract"] + ["--simplify", "1", "--smooth", "0"],
             BASE["extract"] + ["--simplify", "1e-3", "--smooth", "3"],
             BASE["volinfo"] + ["--series", "1.2.840.113619.2.55", "--quiet"],
             ["render", "sphere:8", "--iso", "0.5", "--size", "16x16", "--camera", "-360,-90,1e-3", "--fov", "170",
              "-o", "edge.png"]]:
    r = run(args)
    check(r is not None and r.returncode == 0, f"`isoscope {' '.join(args)}` is accepted: {r and r.stderr.strip()!r}")
# Nothing refused wrote a file.
check(sorted(os.listdir(TMP)) == ["edge.png"], f"refused commands wrote nothing: {sorted(os.listdir(TMP))}")
shutil.rmtree(TMP)

finish()
