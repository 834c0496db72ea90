#!/usr/bin/env python3
"""Checked outputs on every command that writes (issue 21): a write that fails
(a full disk: /dev/full; a file size limit: RLIMIT_FSIZE) exits 1 naming the
file and leaves no partial file; an existing file is replaced only with
--force (an .nhdr's .raw included); -o "" is a usage error; -o - is standard
output where the output is JSON or PNG, and a usage error (never a file
named '-') where the format comes from the file name."""
import json
import os
import resource
import subprocess
import tempfile

from cli_support import BIN, check, finish


def run(args, cwd, file_limit=None, stdout=subprocess.PIPE):
    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_limit, file_limit))
    return subprocess.run([BIN, *args], stdout=stdout, stderr=subprocess.PIPE, timeout=300, cwd=cwd,
                          preexec_fn=limit if file_limit else None)


def one_line(r):
    """The error is one line (bench-scan's progress line before it aside)."""
    lines = [line for line in r.stderr.decode(errors="replace").splitlines() if line.strip()]
    return len([line for line in lines if not line.startswith("bench-scan: timed")]) == 1


def err(r):
    return r.stderr.decode(errors="replace").strip()


# Small, quick runs of each command; OUT marks where the output file goes.
FAST_BENCH = ["--repeat", "1", "--warmup", "0", "--warmup-ms", "0"]
WRITERS = {
    "extract -o (PLY)": ["extract", "sphere:24", "--iso", "0.5", "-o", "OUT.ply"],
    "extract -o (OBJ)": ["extract", "sphere:24", "--iso", "0.5", "-o", "OUT.obj"],
    "extract -o (STL)": ["extract", "sphere:24", "--iso", "0.5", "-o", "OUT.stl"],
    "extract -o (VTP)": ["extract", "sphere:24", "--iso", "0.5", "-o", "OUT.vtp"],
    "extract -o (glTF + .bin)": ["extract", "sphere:24", "--iso", "0.5", "-o", "OUT.gltf"],
    "extract -o (GLB)": ["extract", "sphere:24", "--iso", "0.5", "-o", "OUT.glb"],
    "extract --simplify --smooth -o (GLB)": ["extract", "sphere:24", "--iso", "0.5", "--simplify", "0.5", "--smooth",
                                             "2", "-o", "OUT.glb"],
    "extract --stats": ["extract", "sphere:24", "--iso", "0.5", "--stats", "OUT.json"],
    "render -o": ["render", "sphere:24", "--iso", "0.5", "--size", "64x64", "-o", "OUT.png"],
    "render --mode iso-warp -o": ["render", "sphere:24", "--iso", "0.5", "--size", "64x64", "--mode", "iso-warp",
                                  "-o", "OUT.png"],
    "convert -o (.nrrd)": ["convert", "sphere:24", "-o", "OUT.nrrd"],
    "convert -o (.nhdr)": ["convert", "sphere:24", "-o", "OUT.nhdr"],
    "bench -o": ["bench", "sphere:24", "--iso", "0.5", *FAST_BENCH, "-o", "OUT.json"],
    "bench-raycast -o": ["bench-raycast", "sphere:8", "--iso", "0.5", "--size", "8x8", "--sweep", "180", "--modes",
                         "iso-warp", *FAST_BENCH, "-o", "OUT.json"],
    "bench-scan -o": ["bench-scan", "--count", "1000", *FAST_BENCH, "-o", "OUT.json"],
}


def with_out(args, name):
    return [a.replace("OUT", name) if "OUT" in a else a for a in args]


def output_option(args):
    return args[[i for i, a in enumerate(args) if "OUT" in a][0] - 1]


with tempfile.TemporaryDirectory(dir=os.environ.get("ISOSCOPE_TEST_TMP")) as tmp:
    for what, args in WRITERS.items():
        folder = tempfile.mkdtemp(dir=tmp)
        ext = os.path.splitext([a for a in args if "OUT" in a][0])[1]

        # Disk full: the target is /dev/full (through a link, for formats chosen by extension).
        os.symlink("/dev/full", os.path.join(folder, "full" + ext))
        r = run(with_out(args, "full"), folder)
        check(r.returncode == 1 and one_line(r) and "full" + ext in err(r) and "No space left" in err(r),
              f"{what} to a full disk: exit 1, one line naming the file: rc={r.returncode} {err(r)!r}")
        os.remove(os.path.join(folder, "full" + ext))

        # A file size limit stops the write part-way: nothing is left behind.
        r = run(with_out(args, "big"), folder, file_limit=256)
        # (.nhdr: the .raw beside it is written first, and named; .gltf: likewise its .bin.)
        beside = {".nhdr": "big.raw", ".gltf": "big.bin"}
        check(r.returncode == 1 and one_line(r) and ("big" + ext in err(r) or ext in beside and beside[ext] in err(r)),
              f"{what} past a file size limit: exit 1 naming the file: rc={r.returncode} {err(r)!r}")
        check(os.listdir(folder) == [], f"{what} past a file size limit leaves no partial file: {os.listdir(folder)}")

        # It writes a new file; the second run refuses to replace it, the third (--force) replaces it.
        r = run(with_out(args, "new"), folder)
        made = sorted(os.listdir(folder))
        check(r.returncode == 0 and made and not any(name.startswith(".") for name in made),
              f"{what} writes its file and no temporary: {made} {err(r)!r}")
        for name in made:
            with open(os.path.join(folder, name), "wb") as f:
                f.write(b"keep")
        r = run(with_out(args, "new"), folder)
        kept = all(open(os.path.join(folder, name), "rb").read() == b"keep" for name in made)
        check(r.returncode == 1 and one_line(r) and "--force" in err(r) and kept and sorted(os.listdir(folder)) == made,
              f"{what} refuses to replace an existing file and leaves it intact: rc={r.returncode} {err(r)!r}")
        r = run(with_out(args, "new") + ["--force"], folder)
        replaced = all(os.path.getsize(os.path.join(folder, name)) > 4 for name in made)
        check(r.returncode == 0 and replaced and sorted(os.listdir(folder)) == made,
              f"{what} --force replaces it: rc={r.returncode} {err(r)!r}")

        # An empty name is a usage error.
        r = run(with_out(args, "OUT").__class__(a if "OUT" not in a else "" for a in args), folder)
        check(r.returncode == 2 and one_line(r) and output_option(args) in err(r),
              f"{what} '' is a usage error naming {output_option(args)}: rc={r.returncode} {err(r)!r}")

    # convert X.nhdr must not replace an unrelated X.raw beside it.
    folder = tempfile.mkdtemp(dir=tmp)
    with open(os.path.join(folder, "X.raw"), "wb") as f:
        f.write(b"unrelated")
    r = run(["convert", "sphere:8", "-o", "X.nhdr"], folder)
    check(r.returncode == 1 and "X.raw" in err(r) and "--force" in err(r) and
          open(os.path.join(folder, "X.raw"), "rb").read() == b"unrelated" and os.listdir(folder) == ["X.raw"],
          f"convert -o X.nhdr leaves an unrelated X.raw alone and writes no .nhdr: {err(r)!r}")

    # extract X.gltf must not replace an unrelated X.bin beside it: refused before the extraction.
    folder = tempfile.mkdtemp(dir=tmp)
    with open(os.path.join(folder, "X.bin"), "wb") as f:
        f.write(b"unrelated")
    r = run(["extract", "sphere:8", "--iso", "0.5", "-o", "X.gltf"], folder)
    check(r.returncode == 1 and one_line(r) and "X.bin" in err(r) and "--force" in err(r) and
          open(os.path.join(folder, "X.bin"), "rb").read() == b"unrelated" and os.listdir(folder) == ["X.bin"],
          f"extract -o X.gltf leaves an unrelated X.bin alone and writes no .gltf: {err(r)!r}")

    # -o -: standard output for JSON and PNG, a usage error where the extension picks the format.
    folder = tempfile.mkdtemp(dir=tmp)
    for what, args in WRITERS.items():
        r = run(with_out(args, "OUT").__class__(a if "OUT" not in a else "-" for a in args), folder)
        ext = os.path.splitext([a for a in args if "OUT" in a][0])[1]
        if ext == ".png":
            check(r.returncode == 0 and r.stdout[:8] == b"\x89PNG\r\n\x1a\n",
                  f"{what} - writes the PNG to standard output: rc={r.returncode} {err(r)!r}")
        elif ext == ".json":
            try:
                parsed = json.loads(r.stdout) if r.returncode == 0 else None
            except ValueError:
                parsed = None
            check(isinstance(parsed, dict), f"{what} - writes only JSON to standard output: rc={r.returncode} {err(r)!r}")
        else:
            check(r.returncode == 2 and one_line(r) and "standard output" in err(r),
                  f"{what} - is a usage error (the format comes from the name): rc={r.returncode} {err(r)!r}")
    check(os.listdir(folder) == [], f"no command made a file named '-': {os.listdir(folder)}")

    # What goes to standard output is checked too.
    for args in [["volinfo", "sphere:8", "--json"], ["volinfo", "sphere:8"], ["info", "--methods"],
                 ["extract", "sphere:8", "--iso", "0.5", "--stats", "-"]]:
        with open("/dev/full", "w") as full:
            r = run(args, tmp, stdout=full)
        check(r.returncode == 1 and one_line(r) and "standard output" in err(r),
              f"`isoscope {' '.join(args)} > /dev/full`: exit 1: rc={r.returncode} {err(r)!r}")

    # A folder given as the output is named.
    r = run(["extract", "sphere:8", "--iso", "0.5", "-o", tmp], tmp)
    check(r.returncode in (1, 2) and "folder" in err(r) or "extension" in err(r),
          f"a folder as output is refused: rc={r.returncode} {err(r)!r}")

finish()
