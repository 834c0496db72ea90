#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (corpus/<target>/): small valid
files of each format and variant, so fuzzing starts from inputs that reach
deep into each reader. Run again after changing it; the output is
deterministic."""
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = "@@DATA@@\n"


def samples(fmt, count, big=False):
    values = [((i * 37) % 251) - (100 if fmt in "hf" else 0) for i in range(count)]
    if fmt == "f":
        values = [v / 7.0 for v in values]
    return struct.pack((">" if big else "<") + fmt * count, *values)


def gz(data):
    c = zlib.compressobj(6, zlib.DEFLATED, 31)
    return c.compress(data) + c.flush()


def zl(data):
    return zlib.compress(data, 6)


seeds = {"raw": {}, "nrrd": {}, "nhdr": {}, "metaimage": {}, "mhd": {}, "vtk": {}, "nifti": {}, "tiff": {},
         "dicom": {}, "ply": {}, "obj": {}}

# raw: byte 0 = dims x-1 | (y-1) << 4, byte 1 = (z-1) | type << 4 | big << 6 | header << 7.
for t, fmt in enumerate("BHhf"):
    dims = (5, 4, 3)
    head = bytes([(dims[0] - 1) | (dims[1] - 1) << 4, (dims[2] - 1) | t << 4])
    seeds["raw"][f"5x4x3_type{t}"] = head + samples(fmt, 60)
seeds["raw"]["big_endian_header"] = bytes([4 | 3 << 4, 2 | 1 << 4 | 1 << 6 | 1 << 7]) + b"\0\0\0" + samples("H", 60, True)

nrrd = "NRRD0004\ntype: {t}\ndimension: 3\nsizes: 5 4 3\nendian: {e}\nencoding: {enc}\n"
for name, fmt in [("uchar", "B"), ("ushort", "H"), ("short", "h"), ("float", "f")]:
    head = nrrd.format(t=name, e="little", enc="raw")
    seeds["nrrd"][f"raw_{name}"] = (head + "\n").encode() + samples(fmt, 60)
    seeds["nrrd"][f"gzip_{name}"] = (nrrd.format(t=name, e="big", enc="gzip") + "\n").encode() + gz(samples(fmt, 60, True))
seeds["nrrd"]["oriented"] = (nrrd.format(t="float", e="little", enc="raw") +
                             "space: left-posterior-superior\nspace directions: (0,1.5,0) (2,0,0) (0,0,-0.5)\n"
                             "space origin: (10,-20,30.5)\nkinds: domain domain domain\n\n").encode() + samples("f", 60)
seeds["nrrd"]["skips"] = (nrrd.format(t="short", e="little", enc="raw") + "line skip: 1\nbyte skip: 2\n# c\n\n"
                          ).encode() + b"junk line\n" + b"xx" + samples("h", 60)
seeds["nrrd"]["byte_skip_end"] = (nrrd.format(t="uchar", e="little", enc="raw") + "byte skip: -1\nspacings: 1 2 nan\n\n"
                                  ).encode() + b"pad" + samples("B", 60)
for name, fmt in [("ushort", "H"), ("float", "f")]:
    head = nrrd.format(t=name, e="little", enc="raw") + "data file: data.bin\n"
    seeds["nhdr"][f"raw_{name}"] = (head + DATA).encode() + samples(fmt, 60)
    head = nrrd.format(t=name, e="little", enc="gzip") + "data file: ./data.bin\nbyte skip: 4\n"
    seeds["nhdr"][f"gzip_{name}"] = (head + DATA).encode() + gz(b"skip" + samples(fmt, 60))
seeds["nhdr"]["list"] = (nrrd.format(t="uchar", e="little", enc="raw") + "data file: LIST\ndata.bin\n" + DATA).encode() + samples("B", 60)

mha = ("ObjectType = Image\nNDims = 3\nDimSize = 5 4 3\nElementType = {t}\nElementSpacing = 1 2 3\n"
       "Offset = -1 0 1\nBinaryDataByteOrderMSB = {msb}\n{extra}ElementDataFile = {file}\n")
for name, fmt in [("MET_UCHAR", "B"), ("MET_USHORT", "H"), ("MET_SHORT", "h"), ("MET_FLOAT", "f")]:
    seeds["metaimage"][f"local_{name}"] = mha.format(t=name, msb="False", extra="", file="LOCAL").encode() + samples(fmt, 60)
    seeds["metaimage"][f"zlib_{name}"] = (mha.format(t=name, msb="True", extra="CompressedData = True\n", file="LOCAL").encode()
                                          + zl(samples(fmt, 60, True)))
    seeds["mhd"][f"detached_{name}"] = (mha.format(t=name, msb="False", extra="HeaderSize = 2\n", file="data.bin")
                                        + DATA).encode() + b"hh" + samples(fmt, 60)
seeds["metaimage"]["matrix"] = mha.format(t="MET_FLOAT", msb="False", extra="TransformMatrix = 0 1 0 1 0 0 0 0 1\n",
                                          file="LOCAL").encode() + samples("f", 60)

vtk = "# vtk DataFile Version 3.0\nseed\n{fmt}\nDATASET STRUCTURED_POINTS\nDIMENSIONS 5 4 3\nSPACING 1 1 2\nORIGIN 0 0 -1\nPOINT_DATA 60\nSCALARS s {t} 1\nLOOKUP_TABLE default\n"
for name, fmt in [("unsigned_char", "B"), ("unsigned_short", "H"), ("short", "h"), ("float", "f")]:
    seeds["vtk"][f"binary_{name}"] = vtk.format(fmt="BINARY", t=name).encode() + samples(fmt, 60, True)
    values = struct.unpack(">" + fmt * 60, samples(fmt, 60, True))
    seeds["vtk"][f"ascii_{name}"] = (vtk.format(fmt="ASCII", t=name) + " ".join(str(v) for v in values) + "\n").encode()

# NIfTI-1 single files (.nii): the 348-byte header (offsets from nifti1.h), 4
# bytes of extension flag, the samples; as tests/cpu/test_volume_nifti.cpp builds them.
def nifti1(datatype, bitpix, data, big=False, slope=0.0, inter=0.0, qform=0, sform=1, oblique=False):
    e = ">" if big else "<"
    out = bytearray(352)
    struct.pack_into(e + "i", out, 0, 348)
    struct.pack_into(e + "8h", out, 40, 3, 5, 4, 3, 1, 1, 1, 1)
    struct.pack_into(e + "2h", out, 70, datatype, bitpix)
    struct.pack_into(e + "8f", out, 76, 1, 0.5, 1.25, 2.0, 1, 1, 1, 1)
    struct.pack_into(e + "3f", out, 108, 352, slope, inter)
    struct.pack_into(e + "2h", out, 252, qform, sform)
    if qform:
        struct.pack_into(e + "6f", out, 256, 0.0, 0.0, 0.38268343, 1.0, 2.0, 3.0)  # quatern b c d, offsets
        struct.pack_into(e + "f", out, 76, -1.0)  # qfac
    rows = [(0.0, 1.25, 0, -3), (0.5, 0, 0, 0.125), (0, 0, 2, 10)] if oblique else \
        [(0.5, 0, 0, -3), (0, 1.25, 0, 0.125), (0, 0, 2, 10)]
    for r, row in enumerate(rows):
        struct.pack_into(e + "4f", out, 280 + 16 * r, *row)
    out[344:348] = b"n+1\0"
    return bytes(out) + data


seeds["nifti"]["uint8"] = nifti1(2, 8, samples("B", 60))
seeds["nifti"]["int16_scaled"] = nifti1(4, 16, samples("h", 60), slope=0.5, inter=-3)
seeds["nifti"]["float32_big_oblique"] = nifti1(16, 32, samples("f", 60, True), big=True, oblique=True)
seeds["nifti"]["uint16_qform"] = nifti1(512, 16, samples("H", 60), qform=1, sform=0)
seeds["nifti"]["gzip_int16"] = gz(nifti1(4, 16, samples("h", 60)))


# TIFF: little-endian, one uncompressed strip per page, IFDs chained; as
# tests/cpu/test_volume_tiff.cpp builds them.
def tiff(pages, bits, sample_format, width=5, height=4):
    out = bytearray(b"II" + struct.pack("<HI", 42, 8))
    for p, pixels in enumerate(pages):
        entries = [(256, 4, width), (257, 4, height), (258, 3, bits), (259, 3, 1), (262, 3, 1), (273, 4, 0),
                   (277, 3, 1), (278, 4, height), (279, 4, len(pixels)), (339, 3, sample_format)]
        pixels_at = len(out) + 2 + 12 * len(entries) + 4
        entries[5] = (273, 4, pixels_at)
        following = pixels_at + len(pixels) if p + 1 < len(pages) else 0
        out += struct.pack("<H", len(entries))
        for tag, kind, value in entries:
            out += struct.pack("<HHII", tag, kind, 1, value)
        out += struct.pack("<I", following) + pixels
    return bytes(out)


def pages(fmt, size):
    data = samples(fmt, 60)
    return [data[i * 20 * size:(i + 1) * 20 * size] for i in range(3)]


seeds["tiff"]["uint8_3_pages"] = tiff(pages("B", 1), 8, 1)
seeds["tiff"]["uint16_3_pages"] = tiff(pages("H", 2), 16, 1)
seeds["tiff"]["int16_3_pages"] = tiff(pages("h", 2), 16, 2)
seeds["tiff"]["float32_3_pages"] = tiff(pages("f", 4), 32, 3)


# DICOM Part 10, explicit VR little endian, one int16 CT slice of 5 x 4 (the
# reader takes a single file as a series of one); as
# tests/cpu/test_volume_dicom.cpp builds them, with its sequence of undefined length.
def dicom_element(group, tag, vr, value):
    if len(value) % 2:
        value += b"\0" if vr == "UI" else b" "
    head = struct.pack("<HH", group, tag) + vr.encode()
    if vr in ("OW", "OB"):
        return head + struct.pack("<HI", 0, len(value)) + value
    return head + struct.pack("<H", len(value)) + value


def dicom(pixels, rescale=False):
    ct, explicit_little = b"1.2.840.10008.5.1.4.1.1.2", b"1.2.840.10008.1.2.1"
    meta = (dicom_element(2, 0x0002, "UI", ct) + dicom_element(2, 0x0003, "UI", b"1.2.3.4.5.1") +
            dicom_element(2, 0x0010, "UI", explicit_little))
    out = b"\0" * 128 + b"DICM" + dicom_element(2, 0, "UL", struct.pack("<I", len(meta))) + meta
    out += dicom_element(8, 0x0016, "UI", ct) + dicom_element(8, 0x0018, "UI", b"1.2.3.4.5.1")
    out += dicom_element(8, 0x0060, "CS", b"CT")
    out += struct.pack("<HH", 8, 0x1140) + b"SQ\0\0" + struct.pack("<I", 0xffffffff)
    out += struct.pack("<HHI", 0xfffe, 0xe000, 0xffffffff) + dicom_element(8, 0x1155, "UI", b"1.2.3.4.6")
    out += struct.pack("<HHI", 0xfffe, 0xe00d, 0) + struct.pack("<HHI", 0xfffe, 0xe0dd, 0)
    out += dicom_element(0x20, 0x000e, "UI", b"1.2.3.4.5") + dicom_element(0x20, 0x0032, "DS", b"-3\\0.125\\10")
    out += dicom_element(0x20, 0x0037, "DS", b"1\\0\\0\\0\\1\\0")
    for tag, vr, value in [(0x0002, "US", struct.pack("<H", 1)), (0x0004, "CS", b"MONOCHROME2"),
                           (0x0010, "US", struct.pack("<H", 4)), (0x0011, "US", struct.pack("<H", 5)),
                           (0x0030, "DS", b"1.25\\0.5"), (0x0100, "US", struct.pack("<H", 16)),
                           (0x0101, "US", struct.pack("<H", 16)), (0x0102, "US", struct.pack("<H", 15)),
                           (0x0103, "US", struct.pack("<H", 1))]:
        out += dicom_element(0x28, tag, vr, value)
    if rescale:
        out += dicom_element(0x28, 0x1052, "DS", b"-1024") + dicom_element(0x28, 0x1053, "DS", b"1")
    return out + dicom_element(0x7fe0, 0x0010, "OW", pixels)


seeds["dicom"]["int16_slice"] = dicom(samples("h", 20))
seeds["dicom"]["int16_slice_rescaled"] = dicom(samples("h", 20), rescale=True)

tetra_v = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]
tetra_f = [(0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3)]
head = ("ply\nformat binary_little_endian 1.0\ncomment seed\nelement vertex 4\nproperty float x\nproperty float y\n"
        "property float z\nproperty float nx\nproperty float ny\nproperty float nz\nelement face 4\n"
        "property list uchar uint vertex_indices\nend_header\n")
body = b"".join(struct.pack("<6f", *v, *v) for v in tetra_v) + b"".join(struct.pack("<B3I", 3, *f) for f in tetra_f)
seeds["ply"]["binary_tetra_normals"] = head.encode() + body
seeds["ply"]["ascii_mixed"] = ("ply\nformat ascii 1.0\nelement vertex 5\nproperty double x\nproperty double y\n"
                               "property double z\nproperty uchar red\nelement face 2\n"
                               "property list uchar int vertex_index\nelement edge 1\nproperty int a\nend_header\n"
                               "0 0 0 1\n1 0 0 2\n1 1 0 3\n0 1 0 4\n0.5 0.5 1 5\n4 0 1 2 3\n3 0 1 4\n7\n").encode()
quad = ("ply\nformat binary_little_endian 1.0\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\n"
        "element face 1\nproperty list uchar int vertex_indices\nend_header\n").encode()
seeds["ply"]["binary_quad"] = quad + b"".join(struct.pack("<3f", *v) for v in [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)]) \
    + struct.pack("<B4i", 4, 0, 1, 2, 3)
seeds["obj"]["tetra_normals"] = ("# seed\n" + "".join(f"v {x} {y} {z}\n" for x, y, z in tetra_v) +
                                 "".join(f"vn {x} {y} {z}\n" for x, y, z in tetra_v) +
                                 "".join(f"f {a+1}//{a+1} {b+1}//{b+1} {c+1}//{c+1}\n" for a, b, c in tetra_f)).encode()
seeds["obj"]["textured_negative"] = ("o thing\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nvt 1 1\ng group\ns off\n"
                                     "usemtl m\nf 1/1 2/2 3/1 4/2\nf -4 -3 -1\nl 1 2\n").encode()

for target, files in seeds.items():
    folder = os.path.join(HERE, "corpus", target)
    os.makedirs(folder, exist_ok=True)
    for name, data in files.items():
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
