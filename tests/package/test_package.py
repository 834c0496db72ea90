"""The installed package as an outside project uses it: `cmake --install`
into a temporary prefix, the samples configured against it with
find_package(isoscope) and built, then run on the test's Vulkan device with
validation on. Their outputs are checked with VTK (an independent reader)."""
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np
from vtkmodules.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkIOImage import vtkPNGReader
from vtkmodules.vtkIOPLY import vtkPLYReader

SOURCE = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ["ISOSCOPE_BUILD_DIR"])


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        sys.exit(f"FAIL: {' '.join(map(str, command))} exited {result.returncode}\n{result.stdout}\n{result.stderr}")
    return result


def build_sample(name, prefix, work):
    build = work / f"build-{name}"
    run(["cmake", "-S", SOURCE / "samples" / name, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
         f"-DCMAKE_PREFIX_PATH={prefix}"])
    run(["cmake", "--build", build])
    return build


# Lavapipe's subgroup size follows its vector width; at 128 it is held to AVX
# (see tests/CMakeLists.txt).
SUBGROUP_ENV = {4: {"LP_NATIVE_VECTOR_WIDTH": "128", "GALLIUM_OVERRIDE_CPU_CAPS": "avx"},
                8: {"LP_NATIVE_VECTOR_WIDTH": "256"}}


def check_headers(prefix):
    """Public headers include only the standard library, Vulkan's core header and each other."""
    for header in (prefix / "include" / "isoscope").glob("*.h"):
        for included in re.findall(r'#include [<"]([^>"]+)[>"]', header.read_text()):
            allowed = included.startswith("isoscope/") or included == "vulkan/vulkan_core.h" or "/" not in included
            assert allowed and not included.endswith(".hpp"), f"{header.name} includes {included}"


def load_png(path):
    """RGB pixels, row 0 at the top (VTK reads PNGs bottom-up)."""
    reader = vtkPNGReader()
    reader.SetFileName(str(path))
    reader.Update()
    image = reader.GetOutput()
    width, height, _ = image.GetDimensions()
    pixels = vtk_to_numpy(image.GetPointData().GetScalars()).reshape(height, width, -1)
    return pixels[::-1, :, :3].astype(int)


def covered(pixels):
    """What is not the background (the top-left pixel's colour)."""
    return np.any(np.abs(pixels - pixels[0, 0]) > 8, axis=2)


def check_headless(binary, work, size):
    env = dict(os.environ, ISOSCOPE_VALIDATION="1", **SUBGROUP_ENV[size])
    result = run([binary, "sphere:48", "0.5", work / "sphere"], env=env)
    if "validation" in result.stderr:
        sys.exit(f"FAIL: validation messages from the headless sample:\n{result.stderr}")
    printed = int(re.search(r"(\d+) triangles", result.stdout).group(1))

    reader = vtkPLYReader()
    reader.SetFileName(str(work / "sphere.ply"))
    reader.Update()
    mesh = reader.GetOutput()
    assert mesh.GetNumberOfPolys() == printed > 1000, (mesh.GetNumberOfPolys(), printed)
    points = vtk_to_numpy(mesh.GetPoints().GetData())
    # sphere:48 spans [-1, 1]^3 and its field is the distance from the centre.
    radius = np.linalg.norm(points, axis=1)
    assert abs(radius.mean() - 0.5) < 0.01 and radius.std() < 0.01, (radius.mean(), radius.std())

    sphere = covered(load_png(work / "sphere.png"))
    height, width = sphere.shape
    assert sphere[height // 2, width // 2], "the sphere is missing from the image's centre"
    fraction = sphere.mean()
    assert 0.02 < fraction < 0.6, f"the sphere covers {fraction:.2f} of the image"
    print(f"headless at subgroup size {size}: {printed} triangles, sphere radius {radius.mean():.4f}, image coverage {fraction:.3f}")
    return printed


def check_embed(binary, work, size):
    """The host's scene and isoscope's composite by depth both ways, and
    isoscope's surface in the host's frame has the headless sample's
    silhouette (its raycast of sphere:48 at 0.5, 512x512, the same camera)."""
    env = dict(os.environ, **SUBGROUP_ENV[size])
    reference = covered(load_png(work / "sphere.png"))

    def embed(name, *options, frames=3):
        out = work / f"embed-{size}-{name}.png"
        result = run([binary, "--headless", "--validation", "--frames", str(frames), "--size", "512x512",
                      "--volume", "sphere:48", "--iso", "0.5", "-o", out, *options], env=env)
        # A validation message makes the sample exit 3 (run fails); none may even print.
        assert "validation" not in result.stderr, result.stderr
        return load_png(out)

    host_with_cube = embed("host-cube", "--scene", "host", "--cube-in-front")
    cube = (host_with_cube[:, :, 0] > 60) & (host_with_cube[:, :, 2] > 60) & \
           (host_with_cube[:, :, 1] < host_with_cube[:, :, 0] // 2)  # the magenta cube
    host = embed("host", "--scene", "host")
    host_drawn = covered(host)
    for surface in ("raycast", "mesh"):
        alone = embed(f"{surface}-alone", "--scene", "isoscope", "--surface", surface)
        silhouette = covered(alone)
        iou = (silhouette & reference).sum() / (silhouette | reference).sum()
        assert iou >= 0.99, f"{surface}: silhouette IoU {iou:.4f} against the headless sample's"

        # The cube in front of the surface hides it: the cube's pixels, not the surface's.
        both = embed(f"{surface}-cube", "--scene", "both", "--surface", surface, "--cube-in-front")
        behind = cube & silhouette
        assert behind.sum() > 1000, "the cube should stand in front of the surface"
        hidden = (np.abs(both[behind] - host_with_cube[behind]).max(axis=1) <= 3).mean()
        assert hidden >= 0.99, f"{surface}: only {hidden:.3f} of the cube's pixels in front of the surface show the cube"

        # The surface in front of the ground plane (and the cubes behind it) hides them.
        both = embed(f"{surface}-plane", "--scene", "both", "--surface", surface)
        over = silhouette & host_drawn
        assert over.sum() > 1000, "the host's scene should lie behind the surface"
        shown = (np.abs(both[over] - alone[over]).max(axis=1) <= 3).mean()
        assert shown >= 0.99, f"{surface}: only {shown:.3f} of the surface's pixels over the host's scene show the surface"
        print(f"embed at subgroup size {size}, {surface}: IoU {iou:.4f}, cube hides {hidden:.4f}, "
              f"surface over the scene {shown:.4f}")

    # Volume rendering composites by depth too: the cube in front hides it.
    # (Over the plane it blends where it is not opaque, so that side is not compared.)
    both = embed("dvr-cube", "--scene", "both", "--surface", "dvr", "--cube-in-front")
    volume = covered(embed("dvr-alone", "--scene", "isoscope", "--surface", "dvr"))
    behind = cube & volume
    hidden = (np.abs(both[behind] - host_with_cube[behind]).max(axis=1) <= 3).mean()
    assert behind.sum() > 1000 and hidden >= 0.99, f"dvr: {hidden:.3f} of the cube's pixels show the cube"

    # 200 frames, the isovalue animated, two frames in flight, validation on.
    for surface in ("mesh", "raycast"):
        embed(f"{surface}-animated", "--scene", "both", "--surface", surface, "--animate",
              "--frames-in-flight", "2", frames=200)
    print(f"embed at subgroup size {size}: 200 animated frames, mesh and raycast, no validation message")


def check_python(prefix):
    """The installed Python module imports from the prefix alone (it finds
    libisoscope beside it by its RPATH) and extracts a surface."""
    modules = list(prefix.glob("lib/python3*/*-packages/isoscope/_isoscope*.so"))
    assert modules, "the package lacks the Python module isoscope"
    site = modules[0].parent.parent
    script = ("import isoscope, numpy as np; v = np.indices((12, 12, 12)).sum(0).astype(np.float32); "
              "f = isoscope.marching_cubes(v, 15.5)[1]; assert len(f) > 100, len(f); print(isoscope.__file__)")
    out = subprocess.run([sys.executable, "-c", script], env={**os.environ, "PYTHONPATH": str(site)},
                         capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.startswith(str(site)), out.stderr
    print(f"python module from {site}: imports and extracts")


def check_cli(prefix, work, headless_triangles):
    """The installed CLI runs from the package's bin/ alone (the engine and its
    shaders inside it) and extracts the surface the headless sample built
    against the package extracted."""
    installed = prefix / "bin" / "isoscope"
    assert installed.exists(), "the package lacks bin/isoscope"
    stats = work / "cli-stats.json"
    run([installed, "extract", "sphere:48", "--iso", "0.5", "-o", work / "cli.ply", "--stats", stats],
        env=dict(os.environ, **SUBGROUP_ENV[8]))
    triangles = json.loads(stats.read_text())["triangles"]
    assert triangles == headless_triangles, f"installed isoscope extract: {triangles} triangles, the headless sample {headless_triangles}"
    print(f"cli: installed; extract sphere:48 at 0.5 gives the headless sample's {triangles} triangles")


def check_viewer(prefix, work):
    """The installed isoscope-viewer runs from the package's bin/, and the viewer's
    source builds against the package as an outside project and renders headless."""
    installed = prefix / "bin" / "isoscope-viewer"
    assert installed.exists(), "the package lacks bin/isoscope-viewer (the tree was built with libimgui-dev)"
    assert "usage: isoscope-viewer" in run([installed, "--help"]).stdout, "the installed viewer does not run"
    viewer = build_sample("viewer", prefix, work)
    out = work / "viewer-headless.png"
    result = run([viewer / "isoscope-viewer", "sphere:32", "--headless", "--validation", "--frames", "2",
                  "--size", "128x96", "--screenshot", out], env=dict(os.environ, **SUBGROUP_ENV[8]))
    assert "validation" not in result.stderr, result.stderr
    drawn = covered(load_png(out)).mean()
    assert 0.05 < drawn < 0.9, f"the viewer's headless image covers {drawn:.1%} with the surface"
    print(f"viewer: installed and built against the package; headless surface covers {drawn:.1%}")


def main():
    with tempfile.TemporaryDirectory(prefix="isoscope-package-") as folder:
        work = pathlib.Path(folder)
        prefix = work / "prefix"
        run(["cmake", "--install", BUILD, "--prefix", prefix])
        for expected in ["include/isoscope/isoscope.h", "include/isoscope/version.h",
                         "lib/cmake/isoscope/isoscopeConfig.cmake", "lib/cmake/isoscope/isoscopeConfigVersion.cmake"]:
            assert (prefix / expected).exists(), f"the package lacks {expected}"
        assert list(prefix.glob("lib/libisoscope.so*")), "the package lacks libisoscope.so"
        assert not list(prefix.glob("share/isoscope/shaders*")), "shaders must be embedded, not installed"
        check_headers(prefix)
        check_python(prefix)
        headless = build_sample("headless", prefix, work)
        embed = build_sample("embed", prefix, work)
        for size in (4, 8):
            triangles = check_headless(headless / "isoscope_headless", work, size)
            check_embed(embed / "isoscope_embed", work, size)
        check_cli(prefix, work, triangles)
        if (prefix / "bin" / "isoscope-viewer").exists() or shutil.which("pkg-config") and \
                subprocess.run(["pkg-config", "--exists", "imgui"]).returncode == 0:
            check_viewer(prefix, work)
        print("ok")


if __name__ == "__main__":
    main()
