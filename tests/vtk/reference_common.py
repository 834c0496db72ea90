"""What the reference tests (test_*_vs_*.py) share: the CLI runner, check(),
the skip when a reference library is missing, and readers for the NRRD
volumes and PLY meshes the CLI writes.

Not a test itself: ctest runs only files named test_*.py.
"""
import importlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

BIN = os.environ.get("ISOSCOPE_BIN", "")
DATASETS = os.environ.get("ISOSCOPE_DATASETS", "")

failures = []  # the messages of failed checks; a test exits 1 when any


def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message, flush=True)
    if not condition:
        failures.append(message)


def import_or_skip(module, *names):
    """The module, or the names given taken from it (one, or a tuple); exits
    77 (ctest's skip) naming what is missing when it cannot be imported."""
    try:
        imported = importlib.import_module(module)
        found = tuple(getattr(imported, name) for name in names)
    except (ImportError, AttributeError) as missing:
        print(f"skipped: {missing}")
        sys.exit(77)
    if not names:
        return imported
    return found[0] if len(found) == 1 else found


def scratch_folder(name):
    """A new folder for a test's files under $ISOSCOPE_TEST_TMP; exits 77
    (ctest's skip) when the CLI is not built."""
    if not BIN or not os.access(BIN, os.X_OK):
        print(f"skipped: the isoscope CLI is not built (ISOSCOPE_BIN='{BIN}')")
        sys.exit(77)
    root = os.environ.get("ISOSCOPE_TEST_TMP", "/tmp")
    os.makedirs(root, exist_ok=True)
    return tempfile.mkdtemp(prefix=name + ".", dir=root)


def finish(tmp, kept="files"):
    """A test's exit code: 1 when a check failed (keeping `tmp` to look at), else 0 (removing it)."""
    if failures:
        print(f"{len(failures)} checks failed; {kept} kept in {tmp}")
        return 1
    shutil.rmtree(tmp)
    print("all checks passed")
    return 0


def run_checks(script_globals, name, *checks):
    """Runs a script's checks with its global TMP set to a new scratch folder; the exit code (finish)."""
    script_globals["TMP"] = scratch_folder(name)
    for check_something in checks:
        check_something()
    return finish(script_globals["TMP"], "files")


def isoscope(*args):
    """Runs the CLI; its stdout, or RuntimeError with its stderr when it fails."""
    result = subprocess.run([BIN, *args], capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"isoscope {' '.join(args)} failed ({result.returncode}):\n{result.stderr}")
    return result.stdout


# ---- volumes as numpy arrays, indexed [z, y, x] ----

NRRD_TYPES = {"float": "f4", "uchar": "u1", "unsigned char": "u1", "ushort": "u2", "unsigned short": "u2",
              "short": "i2", "int16": "i2", "uint8": "u1", "uint16": "u2", "float32": "f4"}


def read_nrrd(path):
    """A raw-encoded NRRD (attached or detached): (array[z, y, x] as float32, spacing, origin), both x, y, z."""
    with open(path, "rb") as f:
        content = f.read()
    # A detached header may end without the blank line.
    header_end = content.index(b"\n\n") + 2 if b"\n\n" in content else len(content)
    fields = {}
    for line in content[:header_end].decode().splitlines()[1:]:
        if line and not line.startswith("#") and ":" in line:
            key, value = line.split(":", 1)
            fields[key.strip()] = value.strip()
    assert fields.get("encoding", "raw") == "raw", f"{path}: only raw NRRD is read here"
    sizes = [int(s) for s in fields["sizes"].split()]
    endian = "<" if fields.get("endian", "little") == "little" else ">"
    dtype = np.dtype(endian + NRRD_TYPES[fields["type"]])
    if "data file" in fields:
        with open(os.path.join(os.path.dirname(path), fields["data file"]), "rb") as f:
            raw = f.read()
        raw = raw[len(raw) - dtype.itemsize * int(np.prod(sizes)):]
    else:
        raw = content[header_end:]
    data = np.frombuffer(raw, dtype=dtype, count=int(np.prod(sizes))).reshape(sizes[::-1]).astype(np.float32)
    if "spacings" in fields:
        spacing = [float(s) for s in fields["spacings"].split()]
    else:
        vectors = [[float(c) for c in v.strip("()").split(",")] for v in fields["space directions"].split()]
        spacing = [float(np.linalg.norm(v)) for v in vectors]
    origin = [0.0, 0.0, 0.0]
    if "space origin" in fields:
        origin = [float(c) for c in fields["space origin"].strip("()").split(",")]
    return data, spacing, origin


# ---- meshes ----

def read_ply_with_normals(path):
    """A triangle PLY as isoscope writes it (binary little-endian, `list uchar uint`):
    (positions (n, 3) float32 x, y, z; normals (n, 3) or None when it has none;
    triangles (m, 3) int64 vertex indices)."""
    with open(path, "rb") as f:
        content = f.read()
    end = content.index(b"end_header\n") + len(b"end_header\n")
    header = content[:end].decode()
    assert "binary_little_endian" in header and "property list uchar uint" in header, f"{path}: unexpected PLY"
    vertices = int(header.split("element vertex ")[1].split()[0])
    faces = int(header.split("element face ")[1].split()[0])
    floats = header.split("element face")[0].count("property float")
    values = np.frombuffer(content, dtype="<f4", count=vertices * floats, offset=end).reshape(vertices, floats)
    face_records = np.frombuffer(content, dtype=np.dtype([("n", "u1"), ("i", "<u4", 3)]), count=faces,
                                 offset=end + 4 * vertices * floats)
    assert np.all(face_records["n"] == 3), f"{path}: a face that is not a triangle"
    normals = values[:, 3:6] if floats == 6 else None
    return values[:, :3], normals, face_records["i"].astype(np.int64)


def read_ply(path):
    """read_ply_with_normals without the normals: (positions, triangles)."""
    positions, _, triangles = read_ply_with_normals(path)
    return positions, triangles


def single_cell_case(case):
    """A 2×2×2 float32 volume ([z, y, x]) whose corners are 1 where bit c of `case` is set,
    corner c = x + 2y + 4z as in engine/extract/case_table.h, else 0: at iso 0.5 it is
    Marching Cubes case `case`."""
    data = np.zeros((2, 2, 2), np.float32)
    for corner in range(8):
        if case >> corner & 1:
            data[corner >> 2 & 1, corner >> 1 & 1, corner & 1] = 1.0
    return data


def volinfo(path, *extra):
    """`isoscope volinfo --json` of a volume, parsed."""
    return json.loads(isoscope("volinfo", path, "--json", *extra))
