#!/usr/bin/env python3
"""Progress of long reads and writes (issue 22): a line on stderr with the
percent and the rate when stderr is a terminal, none when it is not (pipes,
logs) and none with --quiet. The terminal is a pty. Each kind of work is
tried: a TIFF stack by page, a NIfTI file (and its .nii.gz, decompressed) by
bytes, NRRD read and written, every mesh format written and a mesh read."""
import gzip
import os
import pty
import re
import struct
import subprocess
import tempfile

import numpy as np

from cli_support import BIN, check, finish

try:
    import tifffile
except ImportError:
    tifffile = None


def stderr_on_terminal(args, cwd):
    """(exit code, what the command wrote to stderr), stderr being a pty."""
    leader, follower = pty.openpty()
    process = subprocess.Popen([BIN, *args], stdout=subprocess.DEVNULL, stderr=follower, cwd=cwd)
    os.close(follower)
    output = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the pty closes when the process ends
            break
        if not chunk:
            break
        output += chunk
    os.close(leader)
    return process.wait(timeout=120), output.decode(errors="replace")


def write_nifti(path, dims):
    """A NIfTI-1 single file of uint8 samples: the 348-byte header (offsets
    from nifti1.h), 4 bytes of extension flag, the samples."""
    header = bytearray(352)
    struct.pack_into("<i", header, 0, 348)
    struct.pack_into("<8h", header, 40, 3, *dims, 1, 1, 1, 1)
    struct.pack_into("<2h", header, 70, 2, 8)  # DT_UINT8, bitpix
    struct.pack_into("<8f", header, 76, 1, 1, 1, 1, 1, 1, 1, 1)
    struct.pack_into("<f", header, 108, 352)  # vox_offset
    header[344:348] = b"n+1\0"
    samples = (np.arange(int(np.prod(dims)), dtype=np.uint64) % 251).astype(np.uint8)
    data = bytes(header) + samples.tobytes()
    with (gzip.open if path.endswith(".gz") else open)(path, "wb") as file:
        file.write(data)


def percents(err):
    return [int(p) for p in re.findall(r"\((\d+)%\)", err)]


def shows_progress(args, cwd, what, amount):
    """On a terminal the command draws its line up to 100% with a rate; with
    --quiet, or with stderr not a terminal, it shows none."""
    again = ["--force"] if "-o" in args else []  # the output written once already
    code, err = stderr_on_terminal(args, cwd)
    line = next((part for part in re.split(r"[\r\n]", err) if what in part and "(100%)" in part), "")
    check(code == 0 and amount in line and re.search(r"\d B/s|iB/s", line) is not None,
          f"{args[0]} {args[1]}: on a terminal, '{what}' reaches 100% with a rate: {line.strip()!r}")
    code, err = stderr_on_terminal([*args, "--quiet", *again], cwd)
    check(code == 0 and what not in err and "%)" not in err, f"  with --quiet, none: {err.strip()[-100:]!r}")
    result = subprocess.run([BIN, *args, *again], capture_output=True, text=True, errors="replace", cwd=cwd)
    check(result.returncode == 0 and "%)" not in result.stderr,
          f"  stderr not a terminal: none ({result.stderr.strip()[-100:]!r})")
    return err


with tempfile.TemporaryDirectory(prefix="progress.", dir=os.environ.get("ISOSCOPE_TEST_TMP")) as folder:
    if tifffile:
        stack = os.path.join(folder, "stack.tif")
        tifffile.imwrite(stack, np.arange(40 * 8 * 8, dtype=np.uint16).reshape(40, 8, 8), photometric="minisblack")
        shows_progress(["volinfo", stack], folder, "reading TIFF stack", "40/40 pages")
    else:
        print("skipped the TIFF checks: no tifffile")

    # 10 MiB: more than one step (core/progress.h, 8 MiB), so the line moves between 0% and 100%.
    write_nifti(os.path.join(folder, "scan.nii"), (256, 256, 160))
    code, err = stderr_on_terminal(["volinfo", "scan.nii"], folder)
    check(code == 0 and any(0 < p < 100 for p in percents(err)) and 0 in percents(err),
          f"a NIfTI read of 10 MiB shows 0%, a step between and 100%: {percents(err)}")
    shows_progress(["volinfo", "scan.nii"], folder, "reading 'scan.nii'", "10.00 MiB/10.00 MiB")
    write_nifti(os.path.join(folder, "scan.nii.gz"), (64, 64, 32))
    shows_progress(["volinfo", "scan.nii.gz"], folder, "decompressing 'scan.nii.gz'", "KiB/128.34 KiB")

    shows_progress(["convert", "sphere:24", "-o", "sphere.nrrd"], folder, "writing 'sphere.nrrd'", "KiB")
    shows_progress(["volinfo", "sphere.nrrd"], folder, "reading 'sphere.nrrd'", "54.00 KiB/54.00 KiB")
    for extension in ["ply", "obj", "stl", "vtp", "gltf", "glb"]:
        written = "surface.bin" if extension == "gltf" else f"surface.{extension}"
        shows_progress(["extract", "sphere:24", "--iso", "0.5", "-o", f"surface.{extension}"], folder,
                       f"writing '{written}'", "lines" if extension == "obj" else "iB/")

    shows_progress(["meshcheck", "surface.ply"], folder, "reading 'surface.ply'", "KiB/")

    # A failed read leaves no line open: the error starts a line of its own.
    with open(os.path.join(folder, "cut.nii"), "wb") as file, open(os.path.join(folder, "scan.nii"), "rb") as whole:
        file.write(whole.read(9 << 20))
    code, err = stderr_on_terminal(["volinfo", "cut.nii"], folder)
    check(code == 1 and re.search(r"(^|\n)isoscope: '[^\n]*cut.nii': truncated", err) is not None,
          f"a truncated NIfTI: the error on a line of its own: {err.strip()[-120:]!r}")

finish()
