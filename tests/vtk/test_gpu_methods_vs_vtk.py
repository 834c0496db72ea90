#!/usr/bin/python3
"""The GPU extraction methods against VTK, through the CLI, on lavapipe.

The checks of test_cpu_reference_vs_vtk.py (the synthetic fields and the real
volumes: vtkMarchingCubes' triangle count and vertices, one per crossed grid
edge, within 1e-5 of a spacing; vtkFlyingEdges3D's count where samples equal
the isovalue; meshcheck) for every GPU method `isoscope info --methods` lists,
welded, so each is checked against an implementation that is not ours.
Exit 77 (skipped) when the CLI has not been built.
"""
import os
import shutil
import sys

import test_cpu_reference_vs_vtk as reference
from reference_common import BIN, failures, isoscope


def main():
    if not BIN or not os.access(BIN, os.X_OK):
        print(f"skipped: the isoscope CLI is not built (ISOSCOPE_BIN='{BIN}')")
        return 77
    # dual makes quads, one per crossed edge with its vertices inside the cells: not
    # Marching Cubes' mesh, so not vtkMarchingCubes'; tests/cli/test_cli_dual.py and the
    # GPU suite's [dual] cases check it against counts made independently on the CPU.
    methods = [m for m in isoscope("info", "--methods").split() if m not in ("cpu", "dual")]
    print("GPU methods:", ", ".join(methods), flush=True)
    for method in methods:
        reference.METHOD = method
        reference.check_volumes()
    if failures:
        print(f"{len(failures)} checks failed; files kept in {reference.TMP}")
        return 1
    shutil.rmtree(reference.TMP, ignore_errors=True)
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
