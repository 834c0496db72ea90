#!/usr/bin/python3
"""DICOM series written by pydicom, read back by isoscope through its CLI.

pydicom writes, into one folder, in shuffled order under random file names:
  A. the engine CT of $ISOSCOPE_DATASETS (or, without it, a synthetic field)
     as CT slices of int16 stored values with Rescale Slope 0.25 and
     Intercept 50, axial, Pixel Spacing 0.7 (rows) by 0.6 (columns), slices
     1.5 apart;
  B. a small oblique series (rotated and tilted orientation, float rescale);
and, in folders of their own, series A with one slice left out (a gap),
series B RLE-compressed (when pydicom can encode RLE) and JPEG lossless,
JPEG-LS and JPEG 2000 compressed (by gdcmconv, when libgdcm-tools is
installed). isoscope must:
  1. refuse the two-series folder, listing both Series Instance UIDs, and read
     each with --series UID, or from any one of its files;
  2. give the slices in position order with the values pydicom's
     apply_modality_lut gives (samples through `convert` to NRRD);
  3. give spacing from Pixel Spacing and positions, and for B the
     index-to-world matrix built from Image Orientation/Position (Patient);
  4. note uneven slice spacing, with the numbers, where a slice is missing.
Exit 77 (skipped) when the CLI has not been built or pydicom is missing.
"""
import json
import os
import random
import shutil
import subprocess
import sys

import numpy as np

from reference_common import BIN, DATASETS, check, import_or_skip, isoscope, read_nrrd, finish, scratch_folder

pydicom = import_or_skip("pydicom")
Dataset, FileMetaDataset = import_or_skip("pydicom.dataset", "Dataset", "FileMetaDataset")
apply_modality_lut = import_or_skip("pydicom.pixel_data_handlers.util", "apply_modality_lut")
CTImageStorage, ExplicitVRLittleEndian, generate_uid = import_or_skip("pydicom.uid", "CTImageStorage",
                                                                      "ExplicitVRLittleEndian", "generate_uid")

TMP = ""


def write_series(folder, stored, positions, orientation, pixel_spacing, slope, intercept, rng, series_uid=None,
                 skip=()):
    """stored: int16 array [z, y, x]; writes one file per slice in shuffled order; returns the Series UID."""
    series_uid = series_uid or generate_uid()
    study_uid = generate_uid()
    order = list(range(len(stored)))
    rng.shuffle(order)
    for z in order:
        if z in skip:
            continue
        uid = generate_uid()
        meta = FileMetaDataset()
        meta.MediaStorageSOPClassUID = CTImageStorage
        meta.MediaStorageSOPInstanceUID = uid
        meta.TransferSyntaxUID = ExplicitVRLittleEndian
        ds = Dataset()
        ds.file_meta = meta
        ds.is_little_endian, ds.is_implicit_VR = True, False
        ds.SOPClassUID, ds.SOPInstanceUID = CTImageStorage, uid
        ds.StudyInstanceUID, ds.SeriesInstanceUID = study_uid, series_uid
        ds.Modality = "CT"
        ds.InstanceNumber = rng.randrange(1000)  # meaningless on purpose: order comes from positions
        ds.Rows, ds.Columns = stored.shape[1], stored.shape[2]
        ds.PixelSpacing = [f"{v:g}" for v in pixel_spacing]
        ds.ImagePositionPatient = [f"{v:.6f}" for v in positions[z]]
        ds.ImageOrientationPatient = [f"{v:.8f}" for v in orientation]
        ds.SamplesPerPixel, ds.PhotometricInterpretation = 1, "MONOCHROME2"
        ds.BitsAllocated, ds.BitsStored, ds.HighBit, ds.PixelRepresentation = 16, 16, 15, 1
        ds.RescaleSlope, ds.RescaleIntercept = f"{slope:g}", f"{intercept:g}"
        ds.PixelData = np.ascontiguousarray(stored[z], dtype="<i2").tobytes()
        ds.save_as(os.path.join(folder, uid + ".dcm"), write_like_original=False)
    return series_uid


def pydicom_volume(folder, series_uid):
    """pydicom's view: every file of the series, sorted by position along the normal, modality LUT applied."""
    slices = []
    for name in os.listdir(folder):
        ds = pydicom.dcmread(os.path.join(folder, name))
        if ds.SeriesInstanceUID != series_uid:
            continue
        iop = np.array(ds.ImageOrientationPatient, float)
        normal = np.cross(iop[:3], iop[3:])
        slices.append((float(np.dot(np.array(ds.ImagePositionPatient, float), normal)),
                       apply_modality_lut(ds.pixel_array, ds)))
    slices.sort(key=lambda s: s[0])
    return np.stack([s[1] for s in slices]).astype(np.float32)


def read_back(where, name, *extra):
    out = os.path.join(TMP, name + ".nrrd")
    isoscope("convert", where, "-o", out, *extra)
    info = json.loads(isoscope("volinfo", where, "--json", *extra))
    return read_nrrd(out)[0], info


def source_volume():
    engine = os.path.join(DATASETS, "engine_256x256x128_uint8.nhdr")
    if DATASETS and os.path.exists(engine):
        return read_nrrd(engine)[0], "engine CT"
    print(f"WARN the engine CT is not in ISOSCOPE_DATASETS='{DATASETS}': a synthetic field stands in")
    z, y, x = np.mgrid[0:40, 0:48, 0:56]
    return ((np.sin(x / 5.0) + np.cos(y / 7.0) + z / 20.0) * 60 + 120).astype(np.float32), "synthetic field"


def main():
    global TMP
    TMP = scratch_folder("dicom_vs_pydicom")
    rng = random.Random(22)

    # Series A: values v stored as (v - 50) * 4, read back through slope 0.25 and intercept 50.
    values, what = source_volume()
    stored_a = ((values - 50) * 4).astype(np.int16)
    positions_a = [(-100.0, -80.0, 30.0 + 1.5 * z) for z in range(len(values))]
    axial = (1, 0, 0, 0, 1, 0)
    both = os.path.join(TMP, "two_series")
    os.makedirs(both)
    uid_a = write_series(both, stored_a, positions_a, axial, (0.7, 0.6), 0.25, 50, rng)

    # Series B: oblique, 20 x 24 x 6, float rescale.
    a, b = np.radians(25), np.radians(10)
    row = np.array([np.cos(a), np.sin(a), 0.0])
    column = np.array([-np.sin(a) * np.cos(b), np.cos(a) * np.cos(b), np.sin(b)])
    normal = np.cross(row, column)
    stored_b = np.array(np.random.default_rng(3).integers(-2000, 2000, size=(6, 24, 20)), np.int16)
    origin_b = np.array([12.0, -7.5, 40.0])
    positions_b = [tuple(origin_b + 2.2 * z * normal) for z in range(6)]
    uid_b = write_series(both, stored_b, positions_b, list(row) + list(column), (0.9, 0.8), 0.5, -10.25, rng)

    result = subprocess.run([BIN, "volinfo", both], capture_output=True, text=True)
    check(result.returncode != 0 and uid_a in result.stderr and uid_b in result.stderr and "--series" in result.stderr,
          f"a folder of two series is refused, listing both UIDs: {result.stderr.strip()[:300]}")

    expected_a = pydicom_volume(both, uid_a)
    check(np.array_equal(expected_a, values), f"series A: pydicom's own read-back is the {what}")
    ours, info = read_back(both, "series_a", "--series", uid_a)
    check(ours.shape == expected_a.shape and np.array_equal(ours, expected_a),
          f"series A ({what}, {len(values)} shuffled files): the same samples in position order as pydicom")
    check(info["type"] == ("uint8" if what == "engine CT" else "float32") or info["type"] in ("uint8", "int16"),
          f"series A: rescaled integers kept in an integer type ({info['type']})")
    check(np.allclose(info["spacing"], [0.6, 0.7, 1.5]), f"series A: spacing {info['spacing']} == [0.6, 0.7, 1.5]")
    check(np.allclose(info["origin"], [-100, -80, 30]) and info["axis_aligned"],
          f"series A: axis-aligned at origin {info['origin']}")

    expected_b = pydicom_volume(both, uid_b)
    one_file = next(os.path.join(both, n) for n in sorted(os.listdir(both))
                    if pydicom.dcmread(os.path.join(both, n), stop_before_pixels=True).SeriesInstanceUID == uid_b)
    ours, info = read_back(one_file, "series_b")
    check(ours.shape == expected_b.shape and np.allclose(ours, expected_b, rtol=0, atol=0),
          f"series B (read from one of its files): the same samples as pydicom")
    matrix = np.eye(4)
    matrix[:3, 0], matrix[:3, 1], matrix[:3, 2], matrix[:3, 3] = row * 0.8, column * 0.9, normal * 2.2, origin_b
    ours_matrix = np.array(info["index_to_world"])
    check(np.allclose(ours_matrix, matrix, atol=1e-5),
          f"series B: index_to_world from orientation and positions (max difference "
          f"{np.max(np.abs(ours_matrix - matrix)):.2g})")
    check(np.allclose(info["spacing"], [0.8, 0.9, 2.2]), f"series B: spacing {info['spacing']} == [0.8, 0.9, 2.2]")

    # A gap: series A without one slice.
    gap = os.path.join(TMP, "gap")
    os.makedirs(gap)
    missing = len(values) // 3
    write_series(gap, stored_a, positions_a, axial, (0.7, 0.6), 0.25, 50, rng, skip={missing})
    info = json.loads(isoscope("volinfo", gap, "--json"))
    notes = " ".join(info["notes"])
    check("uneven slice spacing" in notes and "1.5" in notes and "3" in notes,
          f"a missing slice gives a note with the steps: {info['notes']}")

    # Compressed: series B as RLE Lossless.
    rle = os.path.join(TMP, "rle")
    os.makedirs(rle)
    write_series(rle, stored_b, positions_b, list(row) + list(column), (0.9, 0.8), 0.5, -10.25, rng, series_uid=uid_b)
    try:
        for name in os.listdir(rle):
            ds = pydicom.dcmread(os.path.join(rle, name))
            ds.compress(pydicom.uid.RLELossless)
            ds.save_as(os.path.join(rle, name))
        compressed = True
    except Exception as error:  # an encoder this pydicom lacks
        print(f"WARN skipped RLE: pydicom cannot encode it ({error})")
        compressed = False
    if compressed:
        syntax = pydicom.dcmread(os.path.join(rle, os.listdir(rle)[0])).file_meta.TransferSyntaxUID
        ours, _ = read_back(rle, "series_b_rle")
        check(syntax == pydicom.uid.RLELossless and np.array_equal(ours, pydicom_volume(rle, uid_b)),
              f"series B RLE-compressed ({syntax.name}): the same samples as pydicom")

    # JPEG lossless, JPEG-LS and JPEG 2000, written by GDCM's gdcmconv (libgdcm-tools) when present:
    # the values must be series B's as pydicom wrote them uncompressed.
    gdcmconv = shutil.which("gdcmconv")
    if not gdcmconv:
        print("WARN skipped JPEG, JPEG-LS and JPEG 2000: gdcmconv (libgdcm-tools) is absent")
    plain_b = os.path.join(TMP, "plain_b")
    os.makedirs(plain_b)
    write_series(plain_b, stored_b, positions_b, list(row) + list(column), (0.9, 0.8), 0.5, -10.25, rng,
                 series_uid=uid_b)
    for flag, name in [("--jpeg", "jpeg"), ("--jpegls", "jpegls"), ("--j2k", "j2k")] if gdcmconv else []:
        folder = os.path.join(TMP, name)
        os.makedirs(folder)
        for file in os.listdir(plain_b):
            subprocess.run([gdcmconv, flag, os.path.join(plain_b, file), os.path.join(folder, file)], check=True)
        syntax = pydicom.dcmread(os.path.join(folder, os.listdir(folder)[0]), stop_before_pixels=True) \
            .file_meta.TransferSyntaxUID
        ours, _ = read_back(folder, "series_b_" + name)
        check(syntax.is_compressed and np.array_equal(ours, expected_b),
              f"series B compressed by gdcmconv {flag} ({syntax.name}): the values pydicom wrote")

    return finish(TMP, "files")


if __name__ == "__main__":
    sys.exit(main())
