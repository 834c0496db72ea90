#!/usr/bin/env python3
"""Bad input files through every command that reads them (issue 21): meshes
that are folders, devices, FIFOs or NUL bytes; a NRRD with a NaN origin; a
gzip NRRD that claims 4 GiB from 4 MB. Each is exit 1 with one line naming
the file, promptly, within bounded memory, never 'internal error'. And a
volume flat at the isovalue, which has no surface for any extractor or
raycaster."""
import gzip
import os
import random
import resource
import shutil
import struct
import subprocess
import tempfile
import time

from cli_support import BIN, check, finish


def run(args, cwd, memory_limit=None, timeout=60):
    if os.environ.get("ISOSCOPE_SANITIZED"):
        memory_limit = None  # AddressSanitizer reserves terabytes of address space: the cap is checked without it

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))
    start = time.monotonic()
    try:
        r = subprocess.run([BIN, *args], capture_output=True, text=True, errors="replace", timeout=timeout, cwd=cwd,
                           preexec_fn=limit if memory_limit else None)
    except subprocess.TimeoutExpired:
        return None, timeout
    return r, time.monotonic() - start


def refused(r, name):
    lines = [line for line in r.stderr.splitlines() if line.strip()] if r else []
    return (r is not None and r.returncode == 1 and len(lines) == 1 and name in lines[0] and
            "internal error" not in lines[0])


with tempfile.TemporaryDirectory(dir=os.environ.get("ISOSCOPE_TEST_TMP")) as tmp:
    # Meshes: meshcheck is the one command that reads them.
    os.mkdir(os.path.join(tmp, "folder.ply"))
    os.symlink("/dev/zero", os.path.join(tmp, "zero.ply"))
    os.symlink("/dev/zero", os.path.join(tmp, "zero.obj"))
    os.mkfifo(os.path.join(tmp, "fifo.obj"))
    with open(os.path.join(tmp, "nul.obj"), "wb") as f:
        f.write(bytes(20 << 20))
    with open(os.path.join(tmp, "nul.ply"), "wb") as f:
        f.write(bytes(20 << 20))
    for name, why in [("folder.ply", "folder"), ("zero.ply", "not a regular file"), ("zero.obj", "not a regular file"),
                      ("fifo.obj", "not a regular file"), ("nul.obj", "control character"), ("nul.ply", "PLY")]:
        for extra in [[], ["--json"]]:
            # 1 GiB of address space: /dev/zero read to the end would need more.
            r, seconds = run(["meshcheck", name, *extra], tmp, memory_limit=1 << 30, timeout=20)
            check(refused(r, name) and why in r.stderr and seconds < 10,
                  f"meshcheck {name} {' '.join(extra)}: exit 1, one line: '{why}' in {seconds:.1f} s: "
                  f"{r and (r.returncode, r.stderr.strip())!r}")

    # A NRRD with a NaN origin, through every command that reads a volume.
    header = ("NRRD0004\ntype: float\ndimension: 3\nsizes: 8 8 8\nendian: little\nencoding: raw\n"
              "space dimension: 3\nspace origin: (nan,nan,nan)\n\n")
    with open(os.path.join(tmp, "nan_origin.nrrd"), "wb") as f:
        f.write(header.encode() + bytes(8 * 8 * 8 * 4))
    # And a gzip NRRD whose 4.3 MB of data cannot fill the 4 GiB its header claims.
    noise = random.Random(21).randbytes(4300000)
    with open(os.path.join(tmp, "bomb.raw.gz"), "wb") as f:
        f.write(gzip.compress(noise, 1))
    with open(os.path.join(tmp, "bomb.nhdr"), "w") as f:
        f.write("NRRD0004\ntype: float\ndimension: 3\nsizes: 1024 1024 1024\nendian: little\nencoding: gzip\n"
                "data file: bomb.raw.gz\n")
    commands = {
        "volinfo": ["volinfo", "VOLUME"],
        "extract": ["extract", "VOLUME", "--iso", "0", "-o", "never.ply"],
        "render": ["render", "VOLUME", "--iso", "0", "-o", "never.png"],
        "convert": ["convert", "VOLUME", "-o", "never.nrrd"],
        "bench": ["bench", "VOLUME", "--iso", "0"],
        "bench-raycast": ["bench-raycast", "VOLUME", "--iso", "0"],
    }
    for command, args in commands.items():
        r, _ = run([a.replace("VOLUME", "nan_origin.nrrd") for a in args], tmp)
        check(refused(r, "nan_origin.nrrd") and "space origin" in r.stderr,
              f"{command} refuses a NaN space origin: {r and (r.returncode, r.stderr.strip())!r}")
        # 2 GiB of address space: enough to fail properly, not to allocate the 4 GiB claimed.
        r, seconds = run([a.replace("VOLUME", "bomb.nhdr") for a in args], tmp, memory_limit=2 << 30)
        check(refused(r, "bomb.raw.gz") and "4294967296" in r.stderr and seconds < 10,
              f"{command} refuses the gzip bomb from its data, in {seconds:.1f} s within 2 GiB: "
              f"{r and (r.returncode, r.stderr.strip())!r}")
    # A volume flat at the isovalue: no surface, for the extractors and the raycasters alike.
    with open(os.path.join(tmp, "flat_12x10x8_float32.raw"), "wb") as f:
        f.write(struct.pack("<f", 0.5) * (12 * 10 * 8))
    for method in ["cpu", "block", "scan", "histopyramid"]:
        r, _ = run(["extract", "flat_12x10x8_float32.raw", "--iso", "0.5", "--method", method], tmp)
        check(r is not None and r.returncode == 0 and " 0 triangles" in r.stdout,
              f"extract --method {method} of a flat volume at its value: no triangles: {r and r.stdout.strip()!r}")
    for mode in ["iso-standard", "iso-warp"]:
        for extra in [[], ["--no-skip"]]:
            r, _ = run(["render", "flat_12x10x8_float32.raw", "--iso", "0.5", "--mode", mode, "--size", "32x32",
                        "-o", "-", *extra], tmp)
            check(r is not None and r.returncode == 0 and ": 0 of 1024 pixels hit" in r.stderr,
                  f"render --mode {mode} {' '.join(extra)} of a flat volume at its value: no pixel hit: "
                  f"{r and r.stderr.strip()!r}")

    # A volume larger than the machine's memory (804 GiB, under the 1 TiB limit) is refused with the numbers
    # before anything is allocated, not with std::bad_alloc's "out of host memory".
    for command, args in commands.items():
        r, seconds = run([a.replace("VOLUME", "cayley:6000") for a in args], tmp, memory_limit=2 << 30)
        # convert generates a synthetic field plane range by plane range: the disk, not the memory, must hold it.
        if command == "convert" and shutil.disk_usage(tmp).free > 805 << 30:
            print(f"skipped: convert cayley:6000 would fit the {shutil.disk_usage(tmp).free >> 30} GiB free here")
            continue
        needs = ("804.66 GiB of samples need more than" if command == "convert" else
                 "804.7 GiB of host memory, this machine has")
        check(r is not None and r.returncode == 1 and needs in r.stderr and
              seconds < 10, f"{command} cayley:6000: refused with the sizes: {r and r.stderr.strip()!r}")

    leftovers = [name for name in os.listdir(tmp) if name.startswith("never")]
    check(leftovers == [], f"no output was written for a refused input: {leftovers}")

finish()
