#!/usr/bin/env python3
"""Where a streamed extraction's time went: one Markdown row per
`isoscope extract --stream --stats F` JSON file (docs/BENCHMARKS.md, issue 27).

  tools/stream_stats.py STATS.json...

Columns: the wall time and rate (and the fraction of the copy ceiling where
--measure-copy measured one; the source's own rate, read and uploaded with
nothing extracted, and the run's fraction of it where --measure-source
measured it); when the first upload was submitted; the gap
between the first and second slab's uploads (the start-up's tail) and the
largest gap between two later slabs' uploads, with the slab it delayed (a
stall: the main thread waited for a weld, a read or a buffer); the welds'
time, its share in the sink and the main thread's waits for it; the slowest
weld (slab, its vertices, the weld's own ms and the sink's); peak host memory.
"""
import json
import sys


def gap(slabs, i):
    """ms between slab i-1's upload ending and slab i's starting (GPU clock)."""
    return slabs[i]["upload_span_ms"][0] - slabs[i - 1]["upload_span_ms"][1]


def row(path):
    with open(path) as f:
        stats = json.load(f)
    slabs = stats["slabs"]
    fraction = stats.get("fraction_of_copy_ceiling")
    first_gap = f"{gap(slabs, 1):.1f}" if len(slabs) > 1 else ""
    later = max(((gap(slabs, i), i) for i in range(2, len(slabs))), default=None)
    slowest = max(range(len(slabs)), key=lambda i: slabs[i]["weld_ms"], default=None)
    weld = ""
    if slowest is not None:
        s = slabs[slowest]
        sink = s.get("weld_sink_ms")
        own = f"{s['weld_ms'] - sink:.1f} + {sink:.1f}" if sink is not None else f"{s['weld_ms']:.1f}"
        weld = f"{own} (slab {slowest}, {s['vertices']:,} vertices)"
    sink_total = stats.get("weld_sink_ms")
    source = stats.get("source_ceiling_gb_per_s")
    of_source = stats.get("fraction_of_source_ceiling")
    return [path, f"{stats['wall_ms']:.1f}", f"{stats['end_to_end_gb_per_s']:.2f}",
            f"{100 * fraction:.1f}%" if fraction else "",
            f"{source:.2f} ({100 * of_source:.0f}%)" if source and of_source else "",
            f"{stats['first_upload_submitted_ms']:.1f}", first_gap,
            f"{later[0]:.1f} (slab {later[1]})" if later else "",
            f"{stats['weld_ms']:.0f}" + (f" ({sink_total:.0f})" if sink_total is not None else ""),
            f"{stats['weld_wait_ms']:.1f}", weld, f"{stats['peak_host_bytes'] / 1e9:.2f}"]


def main(paths):
    if not paths:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    header = ["stats", "wall ms", "GB/s", "of the ceiling", "source GB/s (run's share)", "first upload at ms", "gap after slab 0 ms",
              "largest later gap ms", "welds ms (in the sink)", "weld waits ms",
              "slowest weld ms: own + sink", "peak host GB"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for path in paths:
        try:
            print("| " + " | ".join(row(path)) + " |")
        except (OSError, ValueError, KeyError, IndexError, TypeError) as error:
            print(f"stream_stats: {path} is not the stats of a streamed extraction ({error!r})", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
