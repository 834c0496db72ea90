"""What the CLI test scripts share: the binary under test (a script exits
77, ctest's skip, when it is missing), and checks that print one line each
and decide the exit code."""
import os
import sys

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
