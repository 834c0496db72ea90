#!/usr/bin/env bash
# The host side of streaming alone (no GPU), docs/BENCHMARKS.md "Streamed
# extraction: the host's sources per core": how fast the synthetic
# generators and the file reader fill a slab's staging, old and new builds
# of tools/bench_sources (the same harness linked against each engine), on
# every core and on one (`taskset -c 0`: the source's threads share it).
# Writes one JSON line a run to OUT_DIR/sources.jsonl.
#   tools/bench_sources.sh OLD_BENCH NEW_BENCH OUT_DIR [WORK_DIR]
# OLD_BENCH may be "-" (new only).
set -uo pipefail
old=$1 new=$2 out=$3 work=${4:-/tmp/isoscope-sources-bench}
mkdir -p "$out" "$work"
file="$work/noise_2048x2048x256_uint8.raw"
head -c $((2048 * 2048 * 256)) /dev/urandom >"$file" # 1 GiB, in the page cache once written
# SOURCE TYPE PLANES(all cores) PLANES(one core)
cases=("cayley:2048 float32 32 4" "cayley:2048 uint8 32 8" "sphere:4096x4096x6144 uint8 32 4"
       "sphere:4096x4096x6144 float32 16 2" "$file uint8 32 8")
for c in "${cases[@]}"; do
  read -r source type all one <<<"$c"
  for version in old new; do
    bin=${!version}
    [ "$bin" = "-" ] && continue
    line=$("$bin" "$source" "$type" "$all" 7) && echo "{\"binary\": \"$version\", \"run\": $line}" >>"$out/sources.jsonl"
    line=$(taskset -c 0 "$bin" "$source" "$type" "$one" 5) &&
      echo "{\"binary\": \"$version\", \"run\": $line}" >>"$out/sources.jsonl"
  done
done
rm -rf "$work"
cat "$out/sources.jsonl"
