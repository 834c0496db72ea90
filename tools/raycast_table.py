#!/usr/bin/env python3
"""Markdown tables of `isoscope bench-raycast` JSON files (docs/BENCHMARKS.md):
one row per file (min / median / max ms over the sweep for each mode), then,
with --sweep, one row per view direction.

    tools/raycast_table.py out/bench/raycast-*.json [--sweep]
"""
import json
import sys

MODES = ["iso-standard", "iso-warp", "iso-auto"]


def cell(summary, mode):
    s = summary.get(mode)
    return f"{s['min']:.3f} / {s['median']:.3f} / {s['max']:.3f}" if s else "–"


def main(args):
    sweep = "--sweep" in args
    paths = [a for a in args if a != "--sweep"]
    rows = [json.load(open(p)) for p in paths]
    print("| volume | dims | type | projection | skipping | iso-standard ms (min / median / max) | iso-warp ms | iso-auto ms "
          "| auto worst ÷ best direction | auto worst ÷ best-of-two | classify ms | floor ms | read volume once ms |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        s = r["summary"]
        auto = s.get("iso-auto", {})
        name = r["volume"].split("/")[-1]
        print(f"| {name} | {'×'.join(map(str, r['dims']))} | {r['type']} | {r['projection']} "
              f"| {'yes' if r['empty_space_skipping'] else 'no'} "
              f"| {cell(s, 'iso-standard')} | {cell(s, 'iso-warp')} | {cell(s, 'iso-auto')} "
              f"| {auto.get('max_over_min', float('nan')):.2f} | {auto.get('worst_over_best_of_two', float('nan')):.2f} "
              f"| {r['classify_bricks_ms']:.3f} | {r['floor_ms']:.4f} | {r['volume_read_ms']:.3f} |")
    if sweep:
        for r in rows:
            print(f"\n{r['volume'].split('/')[-1]} {'×'.join(map(str, r['dims']))} {r['type']} {r['projection']}:\n")
            print("| θ (deg) | iso-standard ms | iso-warp ms | iso-auto ms | auto chose |")
            print("|---|---|---|---|---|")
            for e in r["sweep"]:
                vals = " | ".join(f"{e[m]:.3f}" if m in e else "–" for m in MODES)
                print(f"| {e['theta_deg']:g} | {vals} | {e.get('auto_choice', '–')} |")


if __name__ == "__main__":
    main(sys.argv[1:])
