#!/usr/bin/env python3
"""Markdown table of `isoscope bench` JSON files (docs/BENCHMARKS.md).

    tools/bench_table.py out/bench/*.json
"""
import json
import sys


def mib(n):
    return f"{n / 2**20:.1f}"


def main(paths):
    rows = [json.load(open(p)) for p in paths]
    print("| method | volume | type | source | weld | block | triangles | per pass (ms) | total ms | floor ms | total ÷ floor | aux MiB | aux ÷ volume | peak MiB |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        dims = "×".join(str(d) for d in r["dims"])
        source = "analytic" if not r["stored"] else ("stored, static" if r.get("static_volume") else "stored")
        passes = ", ".join(f"{k} {v:.3f}" for k, v in r["gpu_ms"].items())
        block = "×".join(str(b) for b in r["block"]) if r["method"] == "block" else "–"
        ratio = r["total_gpu_ms"] / r["floor_ms"] if r["floor_ms"] else float("inf")
        aux_share = f"{100 * r['aux_device_bytes'] / r['volume_bytes']:.1f}%" if r["volume_bytes"] else "–"
        print(f"| {r['method']} | {dims} | {r['scalar_type']} | {source} | {'yes' if r['weld'] else 'no'} | {block} "
              f"| {r['triangles']:,} | {passes} | {r['total_gpu_ms']:.3f} | {r['floor_ms']:.3f} | {ratio:.1f} "
              f"| {mib(r['aux_device_bytes'])} | {aux_share} | {mib(r['peak_device_bytes'])} |")


if __name__ == "__main__":
    main(sys.argv[1:])
