#!/usr/bin/env python3
"""Prints a Markdown table from `isoscope extract --stats` JSON files (one row each)."""
import json
import sys

COLUMNS = ["method", "device", "subgroup_size", "dims", "iso", "vertices", "triangles",
           "total_gpu_ms", "cpu_ms", "aux_device_bytes", "peak_device_bytes"]

rows = []
for path in sys.argv[1:]:
    if path.endswith(".meshcheck.json"):
        continue
    with open(path) as f:
        stats = json.load(f)
    rows.append(["x".join(map(str, v)) if isinstance(v, list) else
                 (f"{v:.3f}" if isinstance(v, float) else ("" if v is None else str(v)))
                 for v in (stats.get(c, stats.get("quads") if c == "triangles" else None) for c in COLUMNS)])
print("| " + " | ".join(COLUMNS) + " |")
print("|" + "---|" * len(COLUMNS))
for row in rows:
    print("| " + " | ".join(row) + " |")
