"""What the CLI test scripts share: the binary under test (a script exits
77, ctest's skip, when it is missing), and checks that print one line each
and decide the exit code."""
import os
import sys
import zlib

BIN = os.environ.get("ISOSCOPE_BIN", "")
if not os.path.exists(BIN):
    print(f"skipped: isoscope binary not found at '{BIN}'")
    sys.exit(77)

failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def finish():
    """Prints how the checks went and exits 1 when any failed, else 0."""
    print(f"{len(failures)} checks failed" if failures else "all checks passed")
    sys.exit(1 if failures else 0)


def read_png(path):
    """(width, height, rows of RGBA bytes) of an 8-bit RGBA PNG, unfiltered."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    at, idat, width, height = 8, b"", 0, 0
    while at < len(data):
        length = int.from_bytes(data[at:at + 4], "big")
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            width, height = int.from_bytes(body[0:4], "big"), int.from_bytes(body[4:8], "big")
            assert body[8] == 8 and body[9] == 6, "not 8-bit RGBA"
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    raw, stride, rows, previous = zlib.decompress(idat), width * 4, [], bytearray(width * 4)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - 4] if i >= 4 else 0
            b, c = previous[i], previous[i - 4] if i >= 4 else 0
            predictor = [0, a, b, (a + b) // 2, a + b - c][kind]
            if kind == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                predictor = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            line[i] = (line[i] + predictor) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, rows
