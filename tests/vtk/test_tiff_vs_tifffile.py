#!/usr/bin/python3
"""TIFF stacks written by tifffile, read back by isoscope through its CLI.

tifffile (Christoph Gohlke's reader and writer) writes multi-page files of
every type the reader takes (uint8, uint16, int16, float32 kept; int8, int32,
uint32, float64 converted), big-endian, zlib-compressed, tiled, ImageJ
hyperstacks with spacing, and folders of single-page slices named without
zero padding. isoscope must give:
  1. tifffile.imread's samples (as float32), through `isoscope convert` to
     NRRD, in z order (folders and globs in natural order: s2 before s10);
  2. the dims, type and spacing (ImageJ's X/YResolution and spacing=, or
     --spacing, which wins), from `isoscope volinfo --json`;
  3. an error naming the file for a slice whose size differs from the first.
Exit 77 (skipped) when the CLI has not been built or tifffile is missing.
"""
import os
import random
import subprocess
import sys

import numpy as np

from reference_common import BIN, check, import_or_skip, isoscope, read_nrrd, run_checks, volinfo

tifffile = import_or_skip("tifffile")

TMP = ""


def our_samples(path, name, *extra):
    out = os.path.join(TMP, name + ".nrrd")
    isoscope("convert", path, "-o", out, *extra)
    return read_nrrd(out)[0]


def values_for(dtype, shape, rng):
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        low, high = max(int(info.min), -(1 << 24)), min(int(info.max), 1 << 24)
        return rng.integers(low, high, size=shape, endpoint=True).astype(dtype)
    return (rng.standard_normal(shape) * 1000).astype(dtype)


def compare(path, expected, name, our_type, spacing=(1.0, 1.0, 1.0), extra=()):
    """expected: tifffile's array [z, y, x]."""
    expected = np.asarray(expected).astype(np.float32)
    ours = our_samples(path, name, *extra)
    check(ours.shape == expected.shape and np.array_equal(ours, expected),
          f"{name}: the same {expected.size} samples as tifffile.imread, slice by slice")
    info = volinfo(path, *extra)
    dims = [expected.shape[2], expected.shape[1], expected.shape[0]]
    check(info["dims"] == dims and info["type"] == our_type,
          f"{name}: dims {info['dims']} {info['type']} == {dims} {our_type}")
    check(np.allclose(info["spacing"], spacing, rtol=1e-6), f"{name}: spacing {info['spacing']} == {list(spacing)}")
    return info


def check_types():
    rng = np.random.default_rng(5)
    shape = (6, 9, 11)  # z, y, x
    kept = {"uint8": "uint8", "uint16": "uint16", "int16": "int16", "float32": "float32", "int8": "int16",
            "int32": "float32", "uint32": "float32", "float64": "float32"}
    for dtype, our_type in kept.items():
        data = values_for(np.dtype(dtype), shape, rng)
        path = os.path.join(TMP, f"{dtype}.tif")
        tifffile.imwrite(path, data, photometric="minisblack")
        info = compare(path, tifffile.imread(path), f"{dtype}.tif", our_type)
        if our_type != dtype:
            check(any(our_type in note for note in info["notes"]), f"{dtype}.tif: a note names the conversion")


def check_layouts():
    rng = np.random.default_rng(9)
    data = values_for(np.dtype("int16"), (5, 37, 45), rng)
    layouts = {"big_endian.tif": dict(byteorder=">"), "zlib.tif": dict(compression="zlib"),
               "tiled.tif": dict(tile=(16, 16)), "strips.tif": dict(rowsperstrip=5),
               "tiled_zlib_predictor.tif": dict(tile=(16, 32), compression="zlib", predictor=True)}
    for name, options in layouts.items():
        path = os.path.join(TMP, name)
        try:
            tifffile.imwrite(path, data, photometric="minisblack", **options)
        except Exception as error:  # a codec this tifffile lacks
            print(f"WARN skipped {name}: tifffile cannot write it ({error})")
            continue
        compare(path, tifffile.imread(path), name, "int16")


def check_imagej():
    rng = np.random.default_rng(11)
    data = values_for(np.dtype("uint16"), (7, 10, 12), rng)
    path = os.path.join(TMP, "imagej.tif")
    tifffile.imwrite(path, data, imagej=True, resolution=(1 / 0.5, 1 / 0.25), metadata={"spacing": 2.5, "unit": "um"})
    with tifffile.TiffFile(path) as tif:
        page = tif.pages[0]
        x_resolution = page.tags["XResolution"].value
        y_resolution = page.tags["YResolution"].value
        spacing = (x_resolution[1] / x_resolution[0], y_resolution[1] / y_resolution[0],
                   float(tif.imagej_metadata["spacing"]))
    compare(path, tifffile.imread(path), "imagej.tif", "uint16", spacing)
    compare(path, tifffile.imread(path), "imagej_overridden.tif", "uint16", (3.0, 2.0, 1.0),
            ("--spacing", "3", "2", "1"))


def check_folders():
    rng = np.random.default_rng(13)
    data = values_for(np.dtype("float32"), (12, 8, 9), rng)
    folder = os.path.join(TMP, "slices")
    os.makedirs(folder)
    order = list(range(12))
    random.Random(4).shuffle(order)  # written out of order: the names, not the write order, give z
    for z in order:
        tifffile.imwrite(os.path.join(folder, f"s{z + 1}.tif"), data[z], photometric="minisblack")
    with open(os.path.join(folder, "notes.txt"), "w") as f:
        f.write("not a slice")
    expected = np.stack([tifffile.imread(os.path.join(folder, f"s{z + 1}.tif")) for z in range(12)])
    compare(folder, expected, "slices (folder)", "float32")
    compare(os.path.join(folder, "s*.tif"), expected, "slices (glob)", "float32")
    compare(os.path.join(folder, "s1?.tif"), expected[9:], "slices (glob s1?)", "float32")

    tifffile.imwrite(os.path.join(folder, "s13.tif"), data[0, :7], photometric="minisblack")
    result = subprocess.run([BIN, "volinfo", folder], capture_output=True, text=True)
    check(result.returncode != 0 and "s13.tif" in result.stderr and "must match" in result.stderr,
          f"a slice of another size is refused, naming it: {result.stderr.strip()}")


if __name__ == "__main__":
    sys.exit(run_checks(globals(), "tiff_vs_tifffile", check_types, check_layouts, check_imagej, check_folders))
