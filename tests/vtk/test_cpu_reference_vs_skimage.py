#!/usr/bin/python3
"""The CPU reference extractor (isoscope extract --method cpu) against scikit-image.

Independent of how ambiguous cells are triangulated, every marching cubes
variant puts one vertex on each grid edge whose ends lie on different sides of
the isovalue (our inside: value >= iso; skimage's: value > iso, the same at the
isovalues used here, which no sample equals), at the linear interpolation of
the two samples. Our CPU reference welds those into one vertex per edge, and so
do both of skimage.measure.marching_cubes' methods. Checked, through the CLI,
for synthetic fields and the real volumes of $ISOSCOPE_DATASETS:
  1. method='lorensen': the two vertex sets are equal, as multisets: the same
     count, and a one-to-one pairing of positions within 1e-4 of a spacing;
  2. method='lewiner': the same for the edge vertices; but Lewiner's
     topologically correct tilings of some ambiguous cells (subcases of 6, 7,
     10, 12, 13) add a vertex inside the cell. skimage's vertices with no
     partner among ours must all be such: strictly inside a cell (on no grid
     face), at most one a cell, and only in ambiguous cells;
  3. triangles. The tables can only differ in ambiguous cells (a face whose
     diagonals are on different sides, or case 4: the two ends of a body
     diagonal apart from the six other corners). In any other cell the
     configuration fixes the polygon(s), and a polygon through n edge vertices
     always gets n - 2 triangles. So, cell by cell (a triangle belongs to the
     cell holding its centroid):
     - lewiner: the same number of triangles as ours in every unambiguous cell.
       The totals then differ only by what ambiguous cells contribute, which
       depends on how many a field has, not on correctness: the difference
       (0 to 3% here) is printed, not bounded;
     - lorensen: first, for all 256 configurations of a single cell, skimage's
       classic table gives our triangle count (with 2 triangles for a case 3
       split and 4 for a joined one, the counts show it resolves ambiguous
       faces the way ours does); so the counts must agree in every cell,
       ambiguous ones included, and the totals must be equal.
Exit 77 (skipped) when the CLI has not been built.

Runtime: skimage takes ~0.1 s per method even on the engine CT (256x256x128),
so no case is dropped or cropped; the whole test takes ~9 s on 2 cores, most of
it the debug CLI's two engine extractions (~2 s each) and reading their meshes.
"""
import json
import os
import sys
import time

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from scipy.spatial import cKDTree
from skimage.measure import marching_cubes

from reference_common import BIN, DATASETS, check, isoscope, read_nrrd, read_ply, single_cell_case, finish, scratch_folder

TMP = ""  # a directory of this run's own (main), so that runs side by side cannot overwrite each other's files

# Positions are compared in units of the spacing (grid-index space). skimage
# interpolates with weights 1 / (FLT_EPSILON + |v - iso|) in double and stores
# float32; we store float32 world coordinates: both are far inside 1e-4.
TOLERANCE = 1e-4


# ---- our side ----

def our_extract(volume, iso, name):
    """(stats, vertex positions (x, y, z world), triangles as vertex indices)."""
    mesh = os.path.join(TMP, name + ".ply")
    stats_path = os.path.join(TMP, name + ".json")
    isoscope("extract", volume, "--iso", repr(float(iso)), "--method", "cpu", "--force", "-o", mesh, "--stats", stats_path)
    with open(stats_path) as f:
        stats = json.load(f)
    positions, triangles = read_ply(mesh)
    return stats, positions.astype(np.float64), triangles


# ---- skimage's side ----

def skimage_extract(data, iso, spacing, origin, method):
    """skimage works in array-index order (z, y, x): give it the spacing that way, turn its vertices to x, y, z."""
    verts, faces, _, _ = marching_cubes(data, level=iso, spacing=tuple(spacing[::-1]), method=method)
    return verts[:, ::-1].astype(np.float64) + np.asarray(origin), faces.astype(np.int64)


# ---- cell analysis with numpy ----

def ambiguous_cells(data, iso):
    """Boolean [z, y, x] per cell: a face whose diagonals are on different sides, or case 4 (a body diagonal)."""
    s = np.isfinite(data) & (data >= iso)
    nz, ny, nx = (n - 1 for n in s.shape)
    corner = {(dz, dy, dx): s[dz:dz + nz, dy:dy + ny, dx:dx + nx] for dz in (0, 1) for dy in (0, 1) for dx in (0, 1)}
    cells = np.zeros((nz, ny, nx), bool)
    # The six faces: fix one axis at 0 or 1, the face's corners are the four over the other two.
    for axis in range(3):
        for side in (0, 1):
            face = sorted(key for key in corner if key[axis] == side)  # c00, c01, c10, c11 in the other axes
            c00, c01, c10, c11 = (corner[key] for key in face)
            cells |= (c00 == c11) & (c01 == c10) & (c00 != c01)
    count = sum(corner[key].astype(np.int8) for key in corner)
    for key in [(0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1)]:
        opposite = tuple(1 - k for k in key)
        a, b = corner[key], corner[opposite]
        cells |= ((count == 2) & a & b) | ((count == 6) & ~a & ~b)
    return cells


def triangles_per_cell(index_positions, triangles, shape):
    """Triangles counted in the cell holding their centroid (positions in grid-index units, x, y, z)."""
    cells = np.array([n - 1 for n in shape[::-1]])  # x, y, z
    centroid = index_positions[triangles].mean(axis=1)
    cell = np.clip(np.floor(centroid).astype(np.int64), 0, cells - 1)
    linear = (cell[:, 2] * cells[1] + cell[:, 1]) * cells[0] + cell[:, 0]
    return np.bincount(linear, minlength=int(np.prod(cells))).reshape(cells[::-1])


# ---- comparisons ----

def write_nrrd(path, data):
    """An attached float32 NRRD of array[z, y, x], unit spacing."""
    header = (f"NRRD0004\ntype: float\ndimension: 3\nsizes: {data.shape[2]} {data.shape[1]} {data.shape[0]}\n"
              "spacings: 1 1 1\nencoding: raw\nendian: little\n\n")
    with open(path, "wb") as f:
        f.write(header.encode())
        f.write(np.ascontiguousarray(data, dtype="<f4").tobytes())


def check_lorensen_table():
    """All 256 configurations of one cell: our triangle count equals skimage lorensen's.

    What makes the lorensen comparison of triangles per cell exact in every cell, ambiguous ones included.
    """
    differ = []
    for case in range(256):
        data = single_cell_case(case)
        path = os.path.join(TMP, "case.nrrd")
        write_nrrd(path, data)
        stats, _, _ = our_extract(path, 0.5, "case")
        theirs = 0
        if 0 < case < 255:  # skimage refuses a level outside the data's range
            theirs = len(marching_cubes(data, 0.5, method="lorensen")[1])
        if stats["triangles"] != theirs:
            differ.append((case, stats["triangles"], theirs))
    check(not differ, f"single cell: all 256 configurations get skimage lorensen's triangle count"
                      + (f" (case, ours, theirs differ: {differ})" if differ else ""))


def pair_vertices(ours, theirs):
    """Pair positions (grid-index units) within TOLERANCE, as multisets.

    Positions are grouped by "within TOLERANCE of one another"; a group must hold as many of ours as of
    theirs (one of each, but for vertices of different edges that nearly coincide at a corner).
    Returns (ours in unbalanced groups, theirs in groups holding none of ours, theirs in other unbalanced
    groups, worst distance of a pair).
    """
    pairs = cKDTree(ours).sparse_distance_matrix(cKDTree(theirs), TOLERANCE, output_type="coo_matrix")
    worst = float(pairs.data.max()) if pairs.nnz else 0.0
    n, m = len(ours), len(theirs)
    # A bipartite graph: ours are nodes 0..n-1, theirs n..n+m-1.
    graph = coo_matrix((np.ones(pairs.nnz), (pairs.row, pairs.col + n)), shape=(n + m, n + m))
    _, group = connected_components(graph, directed=False)
    ours_in = np.bincount(group[:n], minlength=n + m)
    theirs_in = np.bincount(group[n:], minlength=n + m)
    balanced = ours_in == theirs_in
    ours_unpaired = np.flatnonzero(~balanced[group[:n]])
    theirs_alone = np.flatnonzero(ours_in[group[n:]] == 0)
    theirs_unpaired = np.flatnonzero(~balanced[group[n:]] & (ours_in[group[n:]] > 0))
    return ours_unpaired, theirs_alone, theirs_unpaired, worst


def on_grid_edge(index_positions):
    """True where at least two of the three coordinates are integers (within TOLERANCE)."""
    integer = np.abs(index_positions - np.round(index_positions)) < TOLERANCE
    return integer.sum(axis=1) >= 2


def compare(volume_path, iso, label):
    start = time.time()
    data, spacing, origin = read_nrrd(volume_path)
    exact = int(np.count_nonzero(data == np.float32(iso)))
    check(exact == 0, f"{label} iso {iso}: no sample equals the isovalue")
    stats, ours_world, our_triangles = our_extract(volume_path, iso, label.replace(" ", "_").replace(":", "_"))
    check(stats["vertices"] == len(ours_world) and stats["triangles"] == len(our_triangles),
          f"{label}: stats ({stats['vertices']} vertices, {stats['triangles']} triangles) match the PLY")
    to_index = lambda world: (world - np.asarray(origin)) / np.asarray(spacing)
    ours = to_index(ours_world)
    check(bool(np.all(on_grid_edge(ours))), f"{label}: all our vertices lie on grid edges")

    ambiguous = ambiguous_cells(data, np.float32(iso))
    our_cells = triangles_per_cell(ours, our_triangles, data.shape)
    for method in ("lorensen", "lewiner"):
        theirs_world, their_triangles = skimage_extract(data, iso, spacing, origin, method)
        theirs = to_index(theirs_world)
        ours_unpaired, theirs_alone, theirs_unpaired, worst = pair_vertices(ours, theirs)
        name = f"{label} vs skimage {method}"
        paired = (f"{len(ours)} ours, {len(theirs)} theirs, pairs within {worst:.1e} spacings; unpaired: "
                  f"{len(ours_unpaired)} of ours, {len(theirs_alone) + len(theirs_unpaired)} of theirs")
        if method == "lorensen":
            check(len(ours_unpaired) == 0 and len(theirs_alone) == 0 and len(theirs_unpaired) == 0,
                  f"{name}: the same vertex set ({paired})")
        else:
            check(len(ours_unpaired) == 0 and len(theirs_unpaired) == 0,
                  f"{name}: the same edge vertices ({paired})")
            # Theirs with no partner: Lewiner's cell-interior vertices, strictly inside distinct ambiguous cells.
            extra = theirs[theirs_alone]
            cell = np.floor(extra).astype(np.int64)
            interior = bool(np.all(np.abs(extra - np.round(extra)) > TOLERANCE))
            distinct = len({tuple(c) for c in cell}) == len(cell)
            in_grid = bool(np.all((cell >= 0) & (cell < np.array(data.shape[::-1]) - 1)))
            in_ambiguous = in_grid and bool(np.all(ambiguous[cell[:, 2], cell[:, 1], cell[:, 0]]))
            check(interior and distinct and in_ambiguous,
                  f"{name}: its {len(extra)} other vertices lie strictly inside ambiguous cells, one per cell")
        their_cells = triangles_per_cell(theirs, their_triangles, data.shape)
        differ = our_cells != their_cells
        plain_differ = int(np.count_nonzero(differ & ~ambiguous))
        ambiguous_differ = int(np.count_nonzero(differ & ambiguous))
        delta = len(their_triangles) - len(our_triangles)
        counts = (f"{len(our_triangles)} triangles ours, {len(their_triangles)} theirs "
                  f"({100.0 * delta / max(len(our_triangles), 1):+.2f}%)")
        if method == "lorensen":
            # The same table (check_lorensen_table): equal in every cell, so equal in all.
            check(delta == 0 and not differ.any(),
                  f"{name}: {counts}; per cell the same in all cells ({plain_differ + ambiguous_differ} differ; "
                  f"{int(ambiguous.sum())} cells are ambiguous)")
        else:
            check(plain_differ == 0,
                  f"{name}: {counts}; per cell the same in all unambiguous cells ({plain_differ} differ), "
                  f"{ambiguous_differ} of {int(ambiguous.sum())} ambiguous cells differ")
    print(f"     ({time.time() - start:.1f} s)", flush=True)


def main():
    global TMP
    TMP = scratch_folder("cpu_reference_vs_skimage")
    start = time.time()

    check_lorensen_table()

    # Isovalues no sample equals: sphere:33 has samples at exactly 0.5 and gyroid:37 one at exactly 0.0, where
    # we (value >= iso inside) and skimage (value > iso) would disagree on the side, so they are moved slightly.
    synthetic = [("sphere:33", 0.501), ("torus:40", 0.04), ("cayley:48", -0.012), ("gyroid:37", 0.01),
                 ("marschner-lobb:41", 0.5)]
    for spec, iso in synthetic:
        path = os.path.join(TMP, spec.replace(":", "_") + ".nhdr")
        isoscope("convert", spec, "--force", "-o", path)
        compare(path, iso, spec)

    manifest = os.path.join(DATASETS, "MANIFEST.md")
    if not DATASETS or not os.path.exists(manifest):
        print(f"WARN skipped the real volumes: no MANIFEST.md in ISOSCOPE_DATASETS='{DATASETS}'")
    else:
        # The manifest's suggested isovalues, all halfway between integer samples.
        real = [("anatomical_33x41x25_int16.nhdr", [5000.5]),
                ("fmri_128x96x24_int16.nhdr", [300.5]),
                ("engine_256x256x128_uint8.nhdr", [60.5, 150.5])]
        for name, isovalues in real:
            for iso in isovalues:
                compare(os.path.join(DATASETS, name), iso, name.split("_")[0])

    print(f"{time.time() - start:.1f} s in all")
    return finish(TMP, "volumes and meshes")


if __name__ == "__main__":
    sys.exit(main())
