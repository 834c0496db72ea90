#!/usr/bin/env bash
# Old and new binaries in one device call, interleaved config by config, for
# the "no slower" checks of docs/BENCHMARKS.md: each configuration runs with
# the old binary, then the new, then both again, so that both meet the same
# clocks. One JSON per run in OUT_DIR/<round>-<old|new>-<name>.json.
#   ROUNDS=2 tools/compare_gpu.sh OLD_BIN_DIR NEW_BIN_DIR DEB_DIR OUT_DIR SET...
# Sets: extract-small (block, scan, histopyramid on Cayley 256³ and 512³
# uint8), extract-large (the same on 1024³ uint8 and float32), raycast (the
# 1024³ uint8 Cayley sweep, perspective). A line per run goes to
# OUT_DIR/summary.txt (name, binary, total ms) as it finishes.
set -uo pipefail
old=$1 new=$2 debs=$3 out=$4
shift 4
for f in "$debs"/*.deb; do dpkg -x "$f" /; done
ldconfig
mkdir -p "$out"
"$new/isoscope" info >"$out/info.txt" 2>&1
cayley=-0.012

both() {
  local kind=$1 name=$2
  shift 2
  for round in $(seq 1 "${ROUNDS:-2}"); do
    for which in old new; do
      local bin=$old
      [ $which = new ] && bin=$new
      echo "== $round $which $name: isoscope $kind $*" >>"$out/compare.log"
      timeout 150 "$bin/isoscope" "$kind" "$@" -o "$out/$round-$which-$name.json" >>"$out/compare.log" 2>&1
      echo "$name $which $round $(grep -o '"total_gpu_ms": [0-9.]*' "$out/$round-$which-$name.json" | head -1)" >>"$out/summary.txt"
    done
  done
}

for set in "$@"; do
  case $set in
  extract-small|extract-large)
    for method in block scan histopyramid; do
      if [ $set = extract-small ]; then
        for n in 256 512; do
          both bench "$method-cayley$n-uint8" "cayley:$n" --iso $cayley --uint8 --method $method
        done
      else
        both bench "$method-cayley1024-uint8" cayley:1024 --iso $cayley --uint8 --method $method
        both bench "$method-cayley1024-float32" cayley:1024 --iso $cayley --method $method
      fi
    done
    ;;
  raycast)
    both bench-raycast raycast-cayley1024-uint8-persp cayley:1024 --iso $cayley --uint8 --fov 45
    ;;
  *) echo "unknown set $set" >&2; exit 2 ;;
  esac
done
