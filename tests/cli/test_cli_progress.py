#!/usr/bin/env python3
"""Progress of long reads: a line on stderr when stderr is a terminal, none
when it is not (pipes, logs) and none with --quiet. The terminal is a pty."""
import os
import pty
import shutil
import subprocess
import sys
import tempfile

import numpy as np

from cli_support import BIN, check, finish

try:
    import tifffile
except ImportError as missing:
    print(f"skipped: {missing}")
    sys.exit(77)

def stderr_on_terminal(*args):
    """(exit code, what the command wrote to stderr), stderr being a pty."""
    leader, follower = pty.openpty()
    process = subprocess.Popen([BIN, *args], stdout=subprocess.DEVNULL, stderr=follower)
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


def main():
    folder = tempfile.mkdtemp(prefix="progress.", dir=os.environ.get("ISOSCOPE_TEST_TMP", "/tmp"))
    stack = os.path.join(folder, "stack.tif")
    tifffile.imwrite(stack, np.arange(40 * 8 * 8, dtype=np.uint16).reshape(40, 8, 8), photometric="minisblack")

    code, err = stderr_on_terminal("volinfo", stack)
    check(code == 0 and "reading TIFF pages" in err and "40/40 (100%)" in err,
          f"on a terminal, volinfo shows its progress: {err.strip()[-80:]!r}")
    code, err = stderr_on_terminal("volinfo", stack, "--quiet")
    check(code == 0 and "reading" not in err, f"--quiet shows none: {err.strip()!r}")
    result = subprocess.run([BIN, "volinfo", stack], capture_output=True, text=True)
    check(result.returncode == 0 and "reading" not in result.stderr,
          f"stderr not a terminal: no progress ({result.stderr.strip()!r})")

    shutil.rmtree(folder)


if __name__ == "__main__":
    main()
    finish()
